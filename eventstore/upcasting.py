"""Old event shapes are upcast on read: a registry of functions, each taking the data of one
event type from one schema version to the next. Stored rows keep their original shape, so
their hashes still verify."""

from __future__ import annotations

from collections.abc import Callable

from eventstore._shared import UPCASTERS, upcast

__all__ = ["latest_schema", "register_upcaster", "upcast"]


def register_upcaster(*, type: str, from_schema: int, fn: Callable[[dict], dict]) -> None:
    """Register `fn` turning data of `type` at schema `from_schema` into schema + 1."""
    key = (type, from_schema)
    if UPCASTERS.get(key, fn) is not fn:
        raise ValueError(f"An upcaster for {type} schema {from_schema} is already registered.")
    UPCASTERS[key] = fn


def latest_schema(*, type: str) -> int:
    """The schema version events of `type` are read as (1 when no upcaster is registered)."""
    schema = 1
    while (type, schema) in UPCASTERS:
        schema += 1
    return schema
