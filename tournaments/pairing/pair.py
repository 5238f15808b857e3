"""The value every pairing function returns."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pair:
    """One board of a round. `first` deals first; `second` is None for a bye."""

    first: int
    second: int | None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)
