"""Double elimination: a winners' bracket, a losers' bracket and a grand final.

The whole event is a pure function of its inputs: `double_elimination(seeded=..., results=...)`
rebuilds the bracket from the seeded field and the winners recorded so far, and answers the
next wave of matches to play (or that the event is over) with a description of every match a
client can draw. Nothing is stored here; the caller keeps the seeding, the results (match id
-> winner) and the withdrawals, as events.

Shape (bracket size S = 2^k, the smallest power of two >= the field):
- Winners' bracket W1..Wk as in single knockout (`knockout.seed_order`); seeds beyond the
  field are byes, so the byes go to the top seeds.
- Losers' bracket L1..L(2k-2). L1 pairs the losers of W1 matches 2m-1 and 2m. Each even round
  L(2r-2) brings in the losers of Wr (one per match, beside the winner of the round before);
  each odd round L(2r-1) pairs the winners of the round before among themselves. The winner
  of L(2k-2) (the losers' final) is the losers' bracket champion. With k = 1 (two players)
  there is no losers' round: the loser of W1 is that champion.
- Grand final GF1: the winners' champion against the losers' champion. With `reset` (the
  default), if the losers' champion wins it, both have lost once and GF2 (the bracket
  reset) decides; otherwise GF1 decides.

Drop order (where the loser of Wr, match i, goes): L(2r-2) match i XOR c_r, where c_r is
r-1 written in the k-r bits of a match index, bits reversed. Why: in the winners' bracket a
player who lost in round r met only players of their own block of 2^r first-round slots, so
two players can have met only if one's block lies inside the other's. The players who can
reach one side of a losers' match came in over several rounds; those who dropped in any one round
cover 2^r slots before L(2r-2) (2^(r+1) once L(2r-1) merges two sides), and no pair can
have met only if all those sets, one per round of dropping, are disjoint. These offsets keep
them disjoint as long as they fit: up to the round before B(k), the first losers' round with
r * 2^r > 2^k (r the winners' round whose losers drop into it; for an odd round L(2r-1),
r * 2^(r+1) > 2^k), no rematch can happen, whatever the results. From B(k) on the sets no
longer fit into the 2^k slots, so no fixed bracket can keep every possible pair of that round
apart. B(k) is the losers' semifinal for 8 and 16 players (L3 of 4, L4 of 6) and comes
later in larger brackets, relative to the losers' final (L7 of 10 for 64, L16 of 22 for
4,096). The tests check the offsets against a model of the blocks for every bracket up to
2^9 = 512.

Waves: a match's wave is one more than the latest wave it depends on, so Wr is wave r, Lj is
wave j + 1, GF1 wave 2k and GF2 wave 2k + 1. The matches of one wave share no player and
can be played at once (a winners' round and the losers' round beside it). `next_wave` is the
earliest wave with a match still to play; it is complete as soon as every earlier wave is.

Byes, withdrawals, walkovers: a slot nobody can fill (a bye in W1, or the loser of a bye) is
empty. A match with one empty side is a bye (the player advances, nobody drops); with two, it
is empty. A withdrawn player loses every match they have not played yet by walkover (if both
players have withdrawn, the one who withdrew last "wins" and loses the next one, so a later
withdrawal never changes a walkover already decided), and each withdrawal still ends in
exactly one elimination. A result recorded before the withdrawal stands.

Who deals first: the better seed (`Pair.first`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from tournaments.pairing.forbidden import knockout_first_round_avoiding
from tournaments.pairing.knockout import bracket_size, seed_order
from tournaments.pairing.pair import Pair

WINNERS, LOSERS, GRAND_FINAL = "W", "L", "GF"

# Match statuses.
WAITING = "waiting"  # a side is not known yet
READY = "ready"  # both players known, to be played
PLAYED = "played"  # a result is recorded
WALKOVER = "walkover"  # decided without play: a withdrawn player
BYE = "bye"  # one side empty: the player advances
EMPTY = "empty"  # both sides empty: nobody
NOT_NEEDED = "not_needed"  # GF2 when the winners' champion won GF1


class BracketResultError(ValueError):
    """A recorded result that the bracket cannot take (unknown match, wrong winner...);
    `matches`: the ids of the matches whose results it cannot take."""

    def __init__(
        self, code: str, message: str, matches: Sequence[str] = (), /, **params: object
    ) -> None:
        # A template with named placeholders and its values apart, for the catalogues
        # (config/service_messages.py), as the tournament domain's errors; `matches` (by
        # position) the ids of the matches whose results it cannot take.
        super().__init__(message % params if params else message)
        self.code, self.template, self.params = code, message, params
        self.matches = tuple(matches)


@dataclass(frozen=True)
class Destination:
    match: str  # match id
    side: int  # 0 or 1


@dataclass(frozen=True)
class BracketMatch:
    """One match of the bracket, as a client draws it."""

    id: str  # "W1-1", "L3-2", "GF1", "GF2"
    bracket: str  # "W", "L" or "GF"
    round: int  # within its bracket (GF1 = 1, GF2 = 2)
    index: int  # 1-based position within its round, top to bottom
    wave: int
    players: tuple[int | None, int | None]  # by side; None: not known yet, or empty (status)
    seeds: tuple[int | None, int | None]  # the players' seeds (1 = top seed)
    status: str
    winner: int | None
    loser: int | None
    winner_to: Destination | None  # None: the winner is the champion (or GF1's goes on)
    loser_to: Destination | None  # None: the loser is out

    def as_data(self) -> dict[str, object]:
        """Plain JSON-ready data (what `GET .../bracket/` can answer for each match)."""
        return {
            "id": self.id,
            "bracket": self.bracket,
            "round": self.round,
            "index": self.index,
            "wave": self.wave,
            "players": list(self.players),
            "seeds": list(self.seeds),
            "status": self.status,
            "winner": self.winner,
            "loser": self.loser,
            "winner_to": _destination_data(self.winner_to),
            "loser_to": _destination_data(self.loser_to),
        }

    @property
    def pair(self) -> Pair:
        """The match as a board (better seed first); only for a match with two players."""
        (a, b), (sa, sb) = self.players, self.seeds
        assert a is not None and b is not None and sa is not None and sb is not None, self.id
        return Pair(first=a, second=b) if sa < sb else Pair(first=b, second=a)


def _destination_data(to: Destination | None) -> dict[str, object] | None:
    return None if to is None else {"match": to.match, "side": to.side}


@dataclass(frozen=True)
class DoubleElimination:
    matches: tuple[BracketMatch, ...]  # every match, by wave, then W before L, then index
    wave: int | None  # the wave being played (None: the event is over)
    next_wave: tuple[BracketMatch, ...]  # its matches still to play (status READY)
    champion: int | None
    eliminated: Mapping[int, str]  # player -> id of the match that put them out
    places: tuple[tuple[int, ...], ...]  # once over: champion, runner-up, then shared places
    forbidden_met: tuple[frozenset[int], ...] = ()  # in W1, where no pairing avoids them

    @property
    def over(self) -> bool:
        return self.champion is not None

    @property
    def pairings(self) -> list[Pair]:
        return [m.pair for m in self.next_wave]


# ("slot", W1 slot index) or ("winner" | "loser", match id): where a side's player comes from.
Source = tuple[str, int | str]


class _Pending(Enum):
    UNKNOWN = "unknown"  # a side whose source is not decided yet


_UNKNOWN = _Pending.UNKNOWN
Side = int | None | _Pending


@dataclass
class _Match:
    id: str
    bracket: str
    round: int
    index: int
    wave: int
    sources: tuple[Source, Source]
    winner_to: Destination | None = None
    loser_to: Destination | None = None


def drop_offset(k: int, r: int) -> int:
    """c_r: the loser of Wr match i (0-based) drops into L(2r-2) match i XOR c_r."""
    width = k - r
    if width <= 0:
        return 0
    value = (r - 1) % (1 << width)
    return int(format(value, f"0{width}b")[::-1], 2)


def first_possible_rematch_round(k: int) -> int:
    """B(k): the first losers' round (of a 2^k bracket) where a rematch can happen, that is
    where no fixed bracket can rule one out; the losers' final (2k - 2) if none before it."""
    for j in range(2, 2 * k - 2):
        # L(2r-2) holds players who dropped in rounds 1..r; L(2r-1) merges two of those.
        r = j // 2 + 1 if j % 2 == 0 else (j + 1) // 2
        block = 2**r if j % 2 == 0 else 2 ** (r + 1)
        if r * block > 2**k:
            return j
    return 2 * k - 2


@cache
def _skeleton(k: int, reset: bool) -> tuple[_Match, ...]:
    """Every match with its sources and destinations, in the order they are resolved.

    Cached per bracket shape (never mutated after this): rebuilding it was a third of each
    call's time at 4,096 players (bench/README.md)."""
    size = 1 << k
    matches: dict[str, _Match] = {}

    def add(
        bracket: str, rnd: int, index: int, wave: int, sources: tuple[Source, Source]
    ) -> _Match:
        name = f"GF{rnd}" if bracket == GRAND_FINAL else f"{bracket}{rnd}-{index + 1}"
        match = _Match(name, bracket, rnd, index + 1, wave, sources)
        matches[name] = match
        return match

    sources: tuple[Source, Source]
    for r in range(1, k + 1):
        for i in range(size >> r):
            if r == 1:
                sources = (("slot", 2 * i), ("slot", 2 * i + 1))
            else:
                sources = (("winner", f"W{r - 1}-{2 * i + 1}"), ("winner", f"W{r - 1}-{2 * i + 2}"))
            add(WINNERS, r, i, r, sources)
    for j in range(1, 2 * k - 1):
        if j == 1:
            for m in range(size >> 2):
                add(LOSERS, 1, m, 2, (("loser", f"W1-{2 * m + 1}"), ("loser", f"W1-{2 * m + 2}")))
        elif j % 2 == 0:
            r = j // 2 + 1
            c = drop_offset(k, r)
            for i in range(size >> r):
                survivor = ("winner", f"L{j - 1}-{i + 1}")
                add(LOSERS, j, i, j + 1, (survivor, ("loser", f"W{r}-{(i ^ c) + 1}")))
        else:
            for m in range(size >> ((j + 3) // 2)):
                sources = (("winner", f"L{j - 1}-{2 * m + 1}"), ("winner", f"L{j - 1}-{2 * m + 2}"))
                add(LOSERS, j, m, j + 1, sources)
    lb_champion: Source = ("winner", f"L{2 * k - 2}-1") if k > 1 else ("loser", "W1-1")
    add(GRAND_FINAL, 1, 0, 2 * k, (("winner", f"W{k}-1"), lb_champion))
    if reset:
        add(GRAND_FINAL, 2, 0, 2 * k + 1, (("winner", "GF1"), ("loser", "GF1")))
    for match in matches.values():
        for side, (kind, ref) in enumerate(match.sources):
            if kind == "winner":
                matches[str(ref)].winner_to = Destination(match.id, side)
            elif kind == "loser":
                matches[str(ref)].loser_to = Destination(match.id, side)
    return tuple(sorted(matches.values(), key=lambda m: (m.wave, m.bracket != WINNERS, m.index)))


def double_elimination(
    *,
    seeded: Sequence[int],
    results: Mapping[str, int],
    withdrawn: Sequence[int] = (),
    reset: bool = True,
    first_round: Sequence[Pair] | None = None,
    forbidden: Iterable[Collection[int]] = (),
) -> DoubleElimination:
    """The bracket after `results` (match id -> winner) and what to play next.

    `seeded` is the field, seed 1 first; `withdrawn` the players who withdrew, in the order
    they did. `first_round` (optional) replaces the standard W1
    pairs (the same players, in bracket order, byes as Pair(first, None)), e.g. a first round
    set by hand. Without it, `forbidden` pairs are kept apart in W1 as
    `forbidden.knockout_first_round_avoiding` does, and the answer's `forbidden_met` names
    those it could not avoid; later rounds follow the bracket. Raises BracketResultError for a
    result the bracket cannot take: `unknown_match`, `not_ready` (its players are not both
    known, or it needs no play), `not_a_player` (the winner did not play it).
    """
    ids = list(seeded)
    if len(set(ids)) != len(ids):
        raise ValueError("double_elimination: duplicate player ids")
    if len(ids) < 2:
        raise ValueError("double_elimination: need at least two players")
    size = bracket_size(len(ids))
    k = size.bit_length() - 1
    seed = {p: s for s, p in enumerate(ids, 1)}
    forbidden_met: tuple[frozenset[int], ...] = ()
    if first_round is None and forbidden:
        avoiding = knockout_first_round_avoiding(ids, forbidden)
        first_round, forbidden_met = avoiding.pairs, avoiding.forbidden_met
    slots = _first_round_slots(ids, size, first_round)
    skeleton = _skeleton(k, reset)
    unknown = sorted(set(results) - {m.id for m in skeleton})
    if unknown:
        raise BracketResultError(
            "unknown_match",
            "the bracket has no match %(matches)s",
            unknown,
            matches=", ".join(unknown),
        )
    out = {p: i for i, p in enumerate(withdrawn)}  # player -> order of withdrawal
    decided: dict[str, tuple[int | None, int | None]] = {}  # id -> (winner, loser)
    built: list[BracketMatch] = []
    eliminated: dict[int, str] = {}
    champion: int | None = None
    gf1_side0 = None  # the winners' champion
    for match in skeleton:
        sides: list[Side] = [_side(source, slots, decided) for source in match.sources]
        if match.id == "GF2" and "GF1" in decided and decided["GF1"][0] == gf1_side0:
            status, winner, loser = NOT_NEEDED, None, None
            sides = [None, None]
        else:
            status, winner, loser = _decide(match.id, sides, results, out)
        if status in (WAITING, NOT_NEEDED, BYE, EMPTY, WALKOVER) and match.id in results:
            raise BracketResultError(
                "not_ready",
                "the bracket's match %(match)s is not to be played (%(status)s)",
                [match.id],
                match=match.id,
                status=status,
            )
        if status not in (WAITING, READY, NOT_NEEDED):
            decided[match.id] = (winner, loser)
        one, two = (None if isinstance(s, _Pending) else s for s in sides)
        players = (one, two)
        bracket_match = BracketMatch(
            id=match.id,
            bracket=match.bracket,
            round=match.round,
            index=match.index,
            wave=match.wave,
            players=players,
            seeds=(_seed_of(one, seed), _seed_of(two, seed)),
            status=status,
            winner=winner,
            loser=loser,
            winner_to=match.winner_to,
            loser_to=match.loser_to,
        )
        built.append(bracket_match)
        if match.id == "GF1":
            gf1_side0 = players[0]
        if loser is not None and _is_out(bracket_match, reset):
            eliminated[loser] = match.id
            if match.bracket == GRAND_FINAL:
                champion = winner
    waves = sorted({m.wave for m in built if m.status in (READY, WAITING)})
    wave = waves[0] if waves and champion is None else None
    return DoubleElimination(
        matches=tuple(built),
        wave=wave,
        next_wave=tuple(m for m in built if m.wave == wave and m.status == READY),
        champion=champion,
        eliminated=eliminated,
        places=_places(built, eliminated, champion) if champion is not None else (),
        forbidden_met=forbidden_met,
    )


def _first_round_slots(
    ids: list[int], size: int, first_round: Sequence[Pair] | None
) -> list[int | None]:
    if first_round is None:
        return [ids[s - 1] if s <= len(ids) else None for s in seed_order(size)]
    slots = [p for pair in first_round for p in (pair.first, pair.second)]
    if len(slots) != size or sorted(p for p in slots if p is not None) != sorted(ids):
        raise ValueError("double_elimination: first_round must hold the field once, in W1 order")
    return slots


def _side(
    source: Source,
    slots: Sequence[int | None],
    decided: Mapping[str, tuple[int | None, int | None]],
) -> Side:
    kind, ref = source
    if isinstance(ref, int):
        return slots[ref]
    if ref not in decided:
        return _UNKNOWN
    winner, loser = decided[ref]
    return winner if kind == "winner" else loser


def _decide(
    match_id: str,
    sides: list[Side],
    results: Mapping[str, int],
    out: Mapping[int, int],
) -> tuple[str, int | None, int | None]:
    """(status, winner, loser) of a match whose sides are as given."""
    a, b = sides
    if a is _UNKNOWN or b is _UNKNOWN:
        return WAITING, None, None
    assert not isinstance(a, _Pending) and not isinstance(b, _Pending)
    if a is None and b is None:
        return EMPTY, None, None
    if a is None or b is None:
        return BYE, a if b is None else b, None
    if match_id in results:
        winner = results[match_id]
        if winner not in (a, b):
            raise BracketResultError(
                "not_a_player",
                "player %(player)s did not play the bracket's match %(match)s",
                [match_id],
                player=winner,
                match=match_id,
            )
        return PLAYED, winner, b if winner == a else a
    if a in out or b in out:
        # Both withdrawn: the later goes on (as it did while the other alone had withdrawn),
        # to lose its next match by walkover too.
        both = a in out and b in out
        winner = max((a, b), key=out.__getitem__) if both else (b if a in out else a)
        return WALKOVER, winner, b if winner == a else a
    return READY, None, None


def _seed_of(player: int | None, seed: Mapping[int, int]) -> int | None:
    return None if player is None else seed[player]


def _is_out(match: BracketMatch, reset: bool) -> bool:
    """Does the loser of this (decided) match leave the event?"""
    if match.bracket == WINNERS:
        return False
    if match.id == "GF1" and reset:
        return match.loser == match.players[1]  # the losers' champion; else GF2 decides
    return True


def _places(
    built: Sequence[BracketMatch], eliminated: Mapping[int, str], champion: int
) -> tuple[tuple[int, ...], ...]:
    """Champion, runner-up (out in the grand final), then the players out in each losers'
    round, the latest round first; the players out in one round share a place."""
    round_of = {m.id: (m.bracket == GRAND_FINAL, m.round) for m in built}
    groups: dict[tuple[bool, int], list[int]] = {}
    for player, match_id in eliminated.items():
        final, rnd = round_of[match_id]
        groups.setdefault((final, 0 if final else rnd), []).append(player)
    ordered = [tuple(sorted(groups[key])) for key in sorted(groups, reverse=True)]
    return ((champion,), *ordered)
