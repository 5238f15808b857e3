"""Names that are probably the same person's, so that one person keeps one rating in a
club: the desk offers the club's existing players whose names are like the one typed
(a walk-in) or pasted, before it makes a new player.

A name's key folds case, diacritics and script (ICU's transliterator: "Ștefan" and
"stefan" are both "stefan", "Müller" is "muller", "Łukasz" is "lukasz"), and the tokens
are compared in any order ("Popescu Stefan" is "Stefan Popescu"). Similar: the same key
(1.0), the same tokens in another order (0.95), one name's tokens all in the other's
("Ann" and "Ann Ionescu", 0.85), else difflib's ratio of the keys (a typo: alike from 0.8,
counted at most 0.9, below a name spelt the same)."""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import icu

from players.models import Club, Player
from tournaments.models import Registration
from tournaments.ratings.models import ClubRating

SIMILAR = 0.8
TYPO_MAX = 0.9


@functools.cache
def _transliterator() -> icu.Transliterator:
    return icu.Transliterator.createInstance("Any-Latin; Latin-ASCII; Lower")


def name_key(name: str) -> str:
    """The name folded for comparing: lower case ASCII letters, single spaces."""
    folded = _transliterator().transliterate(name.casefold())
    return " ".join("".join(c if c.isalnum() else " " for c in folded).split())


def name_similarity(a: str, b: str) -> float:
    """How alike two names' keys are (see the module's docstring), 0 to 1."""
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    ta, tb = a.split(), b.split()
    if sorted(ta) == sorted(tb):
        return 0.95
    if set(ta) <= set(tb) or set(tb) <= set(ta):
        return 0.85
    typo = max(
        difflib.SequenceMatcher(None, a, b).ratio(),
        difflib.SequenceMatcher(None, " ".join(sorted(ta)), " ".join(sorted(tb))).ratio(),
    )
    return min(typo, TYPO_MAX)


@dataclass(frozen=True)
class SimilarPlayer:
    player: Player
    rating: float | None  # their club rating, if they have one
    score: float
    same: bool  # the same name but for case, diacritics or order


def club_players(*, club: Club) -> list[Player]:
    """The club's existing players: its members, who has a rating in it, and who entered
    one of its tournaments (bots left out)."""
    ids = set(club.members.values_list("pk", flat=True))
    ids |= set(ClubRating.objects.filter(club=club).values_list("player_id", flat=True))
    ids |= set(
        Registration.objects.filter(tournament__club=club).values_list("player_id", flat=True)
    )
    return list(Player.objects.filter(pk__in=ids, is_bot=False).order_by("name", "pk"))


def club_players_like(
    *,
    club: Club | None,
    name: str,
    exclude_ids: Iterable[int] = (),
    limit: int = 5,
    candidates: Sequence[Player] | None = None,
) -> list[SimilarPlayer]:
    """The club's players whose name is like `name`, most alike first (then best rated):
    what the desk offers before it makes a new player. None without a club.
    `candidates` (the club's players) may be given by a caller that asks for many names."""
    if club is None:
        return []
    key = name_key(name)
    excluded = set(exclude_ids)
    pool = club_players(club=club) if candidates is None else candidates
    scored = [(name_similarity(key, name_key(p.name)), p) for p in pool if p.pk not in excluded]
    alike = [(s, p) for s, p in scored if s >= SIMILAR]
    ratings = dict(
        ClubRating.objects.filter(club=club, player_id__in=[p.pk for _, p in alike]).values_list(
            "player_id", "rating"
        )
    )
    alike.sort(key=lambda sp: (-sp[0], -ratings.get(sp[1].pk, 0.0), sp[1].name, sp[1].pk))
    return [SimilarPlayer(p, ratings.get(p.pk), s, s >= 0.95) for s, p in alike[:limit]]
