"""Which chain key made a seal, and whether this install has it (eventstore.seals).

The database records, for every key id that signed here, a public check value of its
secret (`ChainKeyRecord`), never the secret. A verifier then tells apart:
- a seal made with a key this install does not have (another install's, or an old key
  left out of the keyring, or another secret under the same id): "sealed with key K, which
  this install does not have", which is not forgery;
- a seal that does not match the key that made it: forgery.

The signing key is recorded after every `migrate` (post_migrate), by `checkpoints_take`
and by `rotate_chain_key`; the key of the seals made before key ids (NULL) once, by the
migration that added them.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from eventstore.models import ChainKeyRecord
from eventstore.seals import ChainKey, key_check, key_for, keyring, signing_key

__all__ = ["KeyResolver", "chain_key_register", "missing_key_reason"]


def missing_key_reason(key_id: str) -> str:
    return f"sealed with key {key_id}, which this install does not have"


class KeyConflictError(Exception):
    """The configured key id is recorded here with another secret (an operator's error,
    at `migrate` or in the log: never shown on a page)."""

    def __init__(self, key_id: str) -> None:
        super().__init__(key_id)
        self.key_id = key_id

    def __str__(self) -> str:
        return (
            f"The chain key id {self.key_id} is recorded in this database with another"
            " secret; give the new secret a new id (manage.py rotate_chain_key)."
        )


def chain_key_register(*, key: ChainKey | None = None) -> bool:
    """Record the signing key's id and check value (or `key`'s); True if it was new.
    Raises KeyConflictError when the id is recorded with another secret: a new secret
    needs a new id."""
    key = key or signing_key()
    check = key_check(key)
    try:
        with transaction.atomic():
            record, created = ChainKeyRecord.objects.get_or_create(
                key_id=key.key_id, defaults={"check_value": check}
            )
    except IntegrityError:  # registered at the same moment by another process
        record, created = ChainKeyRecord.objects.get(key_id=key.key_id), False
    if record.check_value != check:
        raise KeyConflictError(key.key_id)
    return created


class KeyResolver:
    """The key of each recorded key id, as this install has it (None when it lacks it),
    checked against the database's record of that id. One query, on creation."""

    def __init__(self) -> None:
        self._records = dict(ChainKeyRecord.objects.values_list("key_id", "check_value"))
        self._unlabelled = (
            ChainKeyRecord.objects.filter(unlabelled=True)
            .values_list("key_id", "check_value")
            .first()
        )
        self._cache: dict[str | None, tuple[ChainKey | None, str]] = {}

    def resolve(self, key_id: str | None) -> tuple[ChainKey | None, str]:
        """(the key, or None if this install lacks it; the key id to name)."""
        if key_id not in self._cache:
            self._cache[key_id] = self._resolve(key_id)
        return self._cache[key_id]

    def _resolve(self, key_id: str | None) -> tuple[ChainKey | None, str]:
        if key_id is None:
            if self._unlabelled is None:
                first = keyring()[0]
                return first, first.key_id
            named, check = self._unlabelled
            return next((k for k in keyring() if key_check(k) == check), None), named
        key = key_for(key_id)
        recorded = self._records.get(key_id)
        if key is not None and recorded is not None and key_check(key) != recorded:
            return None, key_id  # another secret under the same id
        return key, key_id
