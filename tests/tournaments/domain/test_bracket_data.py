"""The bracket data answered from a state whose results do not fit (no database): as far as
they are consistent, what is left out marked; nothing to draw from at all: one problem."""

from __future__ import annotations

from dataclasses import replace

from tournaments.domain import fold
from tournaments.domain.brackets import bracket_data
from tournaments.domain.events import (
    PairingEntry,
    PlayerRegistered,
    ResultEntry,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentStarted,
)


def _de(n: int):
    state = fold([TournamentCreated(format="double_elimination", check_in_required=False)])
    state = fold([PlayerRegistered(player=p) for p in range(1, n + 1)], state)
    return fold([TournamentStarted(seeds=tuple(range(1, n + 1)), rounds=None)], state)


def _result(number, table, p1, p2, winner):
    return ResultRecorded(result=ResultEntry(
        round=number, table=table, player1=p1, player2=p2, winner=winner, match=f"m{table}",
        result="played",
    ))  # fmt: skip


def test_every_result_the_bracket_cannot_take_is_left_out_and_named():
    # 4 players: W1-1 is 1-4, W1-2 is 2-3. Table 1's winner did not play it; table 3 names a
    # slot the bracket does not have.
    state = fold([RoundPaired(round=1, pairings=(
        PairingEntry(table=1, player1=1, player2=4, match="m1", slot="W1-1"),
        PairingEntry(table=2, player1=2, player2=3, match="m2", slot="W1-2"),
        PairingEntry(table=3, player1=2, player2=3, match="m3", slot="W9-9"),
    ))], _de(4))  # fmt: skip
    state = fold([_result(1, 1, 1, 4, 2), _result(1, 2, 2, 3, 3), _result(1, 3, 2, 3, 2)], state)
    data = bracket_data(state)
    assert sorted((p["match"], p["code"]) for p in data["problems"]) == [
        ("W1-1", "not_a_player"), ("W9-9", "unknown_match")
    ]  # fmt: skip
    by_id = {m["id"]: m for m in data["matches"]}
    assert by_id["W1-1"]["status"] == "ready" and by_id["W1-1"]["problem"] == "not_a_player"
    assert by_id["W1-2"]["winner"] == 3 and by_id["W1-2"]["problem"] is None
    assert by_id["W2-1"]["players"] == [None, 3]


def test_a_bracket_with_nothing_to_draw_from_says_so():
    state = replace(_de(1), status="in_progress")
    data = bracket_data(state)
    assert data["matches"] == [] and [p["code"] for p in data["problems"]] == ["unreadable"]


def test_before_the_start_there_is_no_bracket_and_no_problem():
    state = fold([TournamentCreated(format="knockout", check_in_required=False)])
    assert bracket_data(state) | {} == {
        "started": False, "format": "", "first_round": None, "matches": [], "champion": None,
        "places": [], "problems": [],
    }  # fmt: skip
