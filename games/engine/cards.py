"""Cards (RULES.md section 1). Public API uses card codes such as "7H"; the solver works on
indexes 0..51 (suit * 13 + rank) so a hand is a 52-bit mask."""

from __future__ import annotations

from collections.abc import Iterable

from games.engine.errors import InvalidCardError, InvalidDeckError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
FULL_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_INDEX = {code: i for i, code in enumerate(FULL_DECK)}
VALUES: tuple[int, ...] = tuple(min(i % 13 + 1, 10) for i in range(52))


def card_index(code: str) -> int:
    """Index 0..51 of a card code; raises InvalidCardError for anything else."""
    try:
        return _INDEX[code]
    except (KeyError, TypeError):
        raise InvalidCardError(
            "%(code)s is not a card: use rank (A23456789TJQK) + suit (CDHS), e.g. '7H'",
            rule="1 cards",
            code=repr(code),
        ) from None


def card_code(index: int) -> str:
    return FULL_DECK[index]


def rank_of(code: str) -> int:
    """0 for an ace up to 12 for a king (the ace is always low)."""
    return card_index(code) % 13


def suit_of(code: str) -> str:
    return code[1]


def card_value(code: str) -> int:
    """Point value: ace 1, 2-10 face value, J Q K 10."""
    return VALUES[card_index(code)]


def parse_cards(codes: Iterable[str]) -> tuple[str, ...]:
    """Validate card codes and reject duplicates."""
    out = tuple(codes)
    seen: set[str] = set()
    for code in out:
        card_index(code)
        if code in seen:
            raise InvalidCardError("card %(code)s appears twice", rule="1 cards", code=code)
        seen.add(code)
    return out


def to_mask(codes: Iterable[str]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << card_index(code)
    return mask


def from_mask(mask: int) -> tuple[str, ...]:
    return tuple(FULL_DECK[i] for i in range(52) if mask >> i & 1)


def validate_deck(deck: Iterable[str]) -> tuple[str, ...]:
    """A full 52-card order, top first, each card once."""
    order = tuple(deck)
    if len(order) != 52 or set(order) != set(FULL_DECK):
        raise InvalidDeckError(
            "a deck order must list each of the 52 cards exactly once, top first",
            rule="3 dealing",
        )
    return order


def sort_cards(codes: Iterable[str]) -> tuple[str, ...]:
    """Suit then rank order, for stable display and deterministic tie-breaks."""
    return tuple(sorted(codes, key=card_index))
