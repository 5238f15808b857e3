"""Swiss then knockout (a "top cut"): who qualifies, how they are seeded, the final standing.

After the Swiss rounds, the top K (4, 8 or 16) play a single knockout (`knockout`), seeded in
their Swiss order. The pieces here are pure:

- `check_top_cut_size(size, field)`: the setting is refused when the tournament is made if K
  is not one of TOP_CUT_SIZES (`TopCutSizeError`) or is larger than the field
  (`TopCutTooLargeError`).
- `top_cut_seeds(...)`: the qualifiers, best seed first. The Swiss order decides (the
  standings' tiebreaks, as groups of players equal on every tiebreak: `standings.tied_groups`);
  players equal on every tiebreak are ordered by club rating (higher first, unrated last),
  then by the recorded draw of lots (its order; players missing from it last, by id, so the
  answer is total). Withdrawn players never qualify: the next player in that order takes the
  place. If withdrawals leave fewer eligible players than K, all of them play and the top
  seeds get the byes (as in any knockout); fewer than two is refused (`TopCutTooLargeError`).
- `third_place_pair(...)`: the semifinal losers' match, when the tournament plays one.
- `top_cut_standing(...)`: the one final standing: the knockout's places first (champion,
  runner-up, then third: the third-place match's winner and loser, or both semifinal losers
  sharing third; quarterfinal losers share fifth, and so on), then everyone else in Swiss
  order. Players sharing a place are listed in their Swiss order.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.pair import Pair

TOP_CUT_SIZES = (4, 8, 16)


class _TopCutError(ValueError):
    """A template with named placeholders and its values apart (the services show it in
    the reader's language, as the tournament domain's errors)."""

    code = ""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template % params)
        self.template, self.params = template, params


class TopCutSizeError(_TopCutError):
    code = "top_cut_size"


class TopCutTooLargeError(_TopCutError):
    code = "top_cut_too_large"


@dataclass(frozen=True)
class Place:
    place: int  # shared by the players of one group (e.g. 3, 3 without a third-place match)
    player: int


def check_top_cut_size(size: int, field: int) -> None:
    """Refuse a top cut that is not 4, 8 or 16, or larger than the field."""
    if size not in TOP_CUT_SIZES:
        raise TopCutSizeError(
            "a top cut of %(size)s is not one of %(sizes)s",
            size=size,
            sizes=", ".join(map(str, TOP_CUT_SIZES)),
        )
    if size > field:
        raise TopCutTooLargeError(
            "a top cut of %(size)s is larger than the field (%(field)s)", size=size, field=field
        )


def top_cut_seeds(
    *,
    swiss_groups: Sequence[Sequence[int]],
    size: int,
    rating: Mapping[int, float] | None = None,
    lots: Sequence[int] = (),
    withdrawn: Collection[int] = (),
) -> list[int]:
    """The qualifiers, seed 1 first (see the module docstring for the order)."""
    if size not in TOP_CUT_SIZES:
        raise TopCutSizeError(
            "a top cut of %(size)s is not one of %(sizes)s",
            size=size,
            sizes=", ".join(map(str, TOP_CUT_SIZES)),
        )
    order = swiss_order(swiss_groups=swiss_groups, rating=rating, lots=lots)
    out = set(withdrawn)
    eligible = [p for p in order if p not in out]
    if len(eligible) < 2:
        raise TopCutTooLargeError(
            "a top cut needs two eligible players, not %(eligible)s", eligible=len(eligible)
        )
    return eligible[:size]


def swiss_order(
    *,
    swiss_groups: Sequence[Sequence[int]],
    rating: Mapping[int, float] | None = None,
    lots: Sequence[int] = (),
) -> list[int]:
    """The Swiss standings as one order: tied groups broken by rating, then the lots."""
    drawn = {p: i for i, p in enumerate(lots)}
    ratings = rating or {}
    seen: set[int] = set()
    order: list[int] = []
    for group in swiss_groups:
        for p in sorted(
            group,
            key=lambda p: (
                p not in ratings,
                -ratings.get(p, 0.0),
                drawn.get(p, len(drawn)),
                p,
            ),
        ):
            if p in seen:
                raise ValueError(f"top cut: player {p} appears twice in the standings")
            seen.add(p)
            order.append(p)
    return order


def third_place_pair(semifinal_losers: Sequence[int], seeds: Sequence[int]) -> Pair:
    """The third-place match: the two semifinal losers, the better seed first."""
    if len(semifinal_losers) != 2 or len(set(semifinal_losers)) != 2:
        raise ValueError("third_place_pair: need the two semifinal losers")
    a, b = sorted(semifinal_losers, key=list(seeds).index)
    return Pair(first=a, second=b)


def top_cut_standing(
    *,
    order: Sequence[int],
    seeds: Sequence[int],
    knockout_rounds: Sequence[Sequence[tuple[int, int | None]]],
    third_place: tuple[int, int] | None = None,
) -> list[Place]:
    """The final standing of a finished top cut.

    `order` is the whole field in Swiss order (`swiss_order`); `seeds` the qualifiers
    (`top_cut_seeds`); `knockout_rounds` each knockout round's matches as (winner, loser),
    loser None for a bye, the final last; `third_place` the third-place match's (winner,
    loser) if one was played.
    """
    position = {p: i for i, p in enumerate(order)}
    if set(seeds) - set(position):
        raise ValueError("top_cut_standing: a qualifier is missing from the Swiss order")
    if not knockout_rounds or len(knockout_rounds[-1]) != 1:
        raise ValueError("top_cut_standing: the knockout is not finished")
    champion, runner_up = knockout_rounds[-1][0]
    places: list[Place] = [Place(1, champion)]
    if runner_up is not None:
        places.append(Place(2, runner_up))
    for matches in reversed(knockout_rounds[:-1]):
        losers = sorted(
            (loser for _, loser in matches if loser is not None), key=position.__getitem__
        )
        if third_place is not None and len(places) == 2 and set(third_place) == set(losers):
            places += [Place(3, third_place[0]), Place(4, third_place[1])]
            continue
        place = len(places) + 1
        places += [Place(place, p) for p in losers]
    placed = {p.player for p in places}
    if placed != set(seeds):
        raise ValueError("top_cut_standing: the knockout rounds do not account for every seed")
    rest = [p for p in order if p not in placed]
    places += [Place(len(placed) + i, p) for i, p in enumerate(rest, 1)]
    return places
