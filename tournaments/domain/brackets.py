"""A tournament's bracket as data a client can draw, from its folded state (no database):
what `GET /api/tournaments/{id}/bracket/` and the bracket pages answer
(tournaments.selectors.tournament_bracket).

Answered as far as the recorded results are consistent, never an error: a result the
bracket cannot take (its winner did not play that match, or the match needs no play, or
there is no such match: an old or imported stream, a result put back in play after later
rounds were played) is left out, its match drawn as it stands without it, and both are
marked: each match carries `problem` (None, or the code: `not_a_player`, `not_ready`,
`unknown_match`) and the answer lists `problems` ({match, round, table, code}, the table
whose result was left out). A state no bracket can be drawn from at all answers no matches
and one problem, `unreadable`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournaments.domain.seeding import bracket_of, seeds_of
from tournaments.domain.state import TournamentState
from tournaments.pairing.double_elimination import BracketResultError, DoubleElimination
from tournaments.pairing.knockout_bracket import THIRD_PLACE, Board, knockout_bracket

Problem = dict[str, Any]  # {"match", "round", "table", "code"}


def bracket_data(state: TournamentState) -> dict[str, Any]:
    """The bracket: `format` ("double_elimination", "knockout", "top_cut", or "" with no
    matches: a format with no bracket, or a top cut before its cut), `first_round` (the
    tournament round of the bracket's first round), `matches` (BracketMatch.as_data() and
    its `problem`), `champion`, `places` (once over) and `problems` (module docstring)."""
    answer: dict[str, Any] = {
        "started": state.started, "format": "", "first_round": None, "matches": [],
        "champion": None, "places": [], "problems": [],
    }  # fmt: skip
    if not state.started:
        return answer
    try:
        if state.format == "double_elimination":
            return answer | _double_elimination(state)
        if state.format == "knockout":
            drawn = _knockout(state, seeds_of(state), first=1)
            return answer | {"format": "knockout", "first_round": 1, **drawn}
        if state.top_cut and state.cut_seeds and state.swiss_rounds is not None:
            first = state.swiss_rounds + 1
            drawn = _knockout(state, list(state.cut_seeds), first=first, third=state.third_place)
            return answer | {"format": "top_cut", "first_round": first, **drawn}
    except (ValueError, LookupError):
        # Nothing to draw from (e.g. a stream whose seeds and tables disagree): say so.
        unreadable = {"match": None, "round": None, "table": None, "code": "unreadable"}
        return answer | {"problems": [unreadable]}
    return answer


def _double_elimination(state: TournamentState) -> dict[str, Any]:
    left_out: dict[str, str] = {}  # match id -> why its result is left out
    bracket: DoubleElimination | None = None
    while bracket is None:
        try:
            bracket = bracket_of(state, leave_out=left_out)
        except BracketResultError as exc:
            new = {m: exc.code for m in exc.matches if m not in left_out}
            if not new:
                raise ValueError(str(exc)) from exc
            left_out |= new  # one more result left out each time: this ends
    problems = [
        {"match": t.slot, "round": n, "table": t.table, "code": left_out[t.slot]}
        for n, r in sorted(state.rounds.items())
        for t in r.tables
        if t.slot in left_out
    ]
    return {
        "format": "double_elimination",
        "first_round": 1,
        "reset": state.bracket_reset,
        "wave": bracket.wave,
        "champion": bracket.champion,
        "places": [list(group) for group in bracket.places],
        "matches": [m.as_data() | {"problem": left_out.get(m.id)} for m in bracket.matches],
        "problems": problems,
    }


def _knockout(
    state: TournamentState, seeded: Sequence[int], *, first: int, third: bool = False
) -> dict[str, Any]:
    """A single knockout's matches from the rounds recorded from round `first` on (a
    third-place match is the table of slot "3P", or, in a stream older than the slots, the
    last round's second table beside the final)."""
    recorded = [(n, list(state.rounds[n].tables)) for n in sorted(state.rounds) if n >= first]
    third_table = None
    for n, tables in recorded:
        for t in tables:
            if t.slot == THIRD_PLACE:
                third_table = (n, t)
                tables.remove(t)
                break
    if third and third_table is None and len(recorded) >= 2:
        last, before = recorded[-1][1], recorded[-2][1]
        if len(last) == 2 and len(before) == 2 and all(t.slot is None for t in last):
            third_table = (recorded[-1][0], last.pop())
    problems: list[Problem] = []

    def board(n: int, t: Any, match_id: str) -> Board:
        winner = t.winner
        if winner is not None and winner not in (t.player1, t.player2):
            problems.append({"match": match_id, "round": n, "table": t.table,
                             "code": "not_a_player"})  # fmt: skip
            winner = None  # drawn as still to play
        index = int(t.slot.rsplit("-", 1)[1]) if t.slot and "-" in t.slot else None
        return Board(t.player1, t.player2, winner, index)

    rounds = [
        [board(n, t, t.slot or f"K{n - first + 1}-{i}") for i, t in enumerate(tables, 1)]
        for n, tables in recorded
    ]
    third_board = board(third_table[0], third_table[1], THIRD_PLACE) if third_table else None
    if len(seeded) < 2:
        return {"matches": [], "champion": None, "problems": problems}
    bracket = knockout_bracket(
        seeded=seeded, rounds=rounds, third_place=third, third_place_board=third_board
    )
    marked = {p["match"]: p["code"] for p in problems}
    return {
        "matches": [m.as_data() | {"problem": marked.get(m.id)} for m in bracket.matches],
        "champion": bracket.champion,
        "places": [list(group) for group in bracket.places],
        "problems": problems,
    }
