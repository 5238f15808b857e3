"""Median Buchholz and head-to-head, the tiebreaks an organiser may add to the defaults."""

from __future__ import annotations

import pytest

from tournaments.pairing.standings import TIEBREAK_CHOICES, Result, standings


def _win(round_: int, winner: int, loser: int) -> Result:
    return Result(round=round_, player1=winner, player2=loser, winner=winner)


def test_head_to_head_orders_players_tied_before_it():
    # 1 beat 2, 2 beat 3, 3 beat 1: all on one win; 4 lost twice. Among 1 and 2 (tied on
    # wins and games), who beat whom decides; a player id would put 1 first either way, so
    # the pair (5, 6) below is ordered against the ids.
    results = [_win(1, 1, 2), _win(2, 2, 3), _win(3, 3, 1), _win(1, 6, 5), _win(2, 4, 5)]
    by_id = standings(players=[1, 2, 3, 4, 5, 6], results=results, tiebreaks=["match_wins"])
    h2h = standings(
        players=[1, 2, 3, 4, 5, 6], results=results, tiebreaks=["match_wins", "head_to_head"]
    )
    order_by_id = [s.player for s in by_id]
    order_h2h = [s.player for s in h2h]
    # One win each: 1, 2, 3, 4, 6 (ids decide without head-to-head).
    assert order_by_id[:5] == [1, 2, 3, 4, 6]
    # Head-to-head among those five: 1, 2, 3 beat one of the group each, 6 beat nobody in
    # it (5 is not tied with them), 4 beat nobody in it either: 1, 2, 3 then 4, 6.
    assert order_h2h[:5] == [1, 2, 3, 4, 6]
    # Two players tied on wins, the higher id having beaten the lower: head-to-head wins.
    pair = [_win(1, 8, 7)]
    assert [s.player for s in standings(players=[7, 8], results=pair, tiebreaks=[])] == [7, 8]
    ranked = standings(players=[7, 8], results=pair, tiebreaks=["head_to_head"])
    assert [s.player for s in ranked] == [8, 7]


def test_median_buchholz_drops_the_best_and_the_worst_opponent():
    # Player 1 met 2 (3 wins), 3 (1 win) and 4 (0 wins... then more).
    results = [
        _win(1, 1, 2),
        _win(2, 1, 3),
        _win(3, 4, 1),
        _win(1, 2, 5),
        _win(2, 2, 6),
        _win(3, 2, 7),
        _win(1, 3, 8),
    ]
    lines = {s.player: s for s in standings(players=list(range(1, 9)), results=results)}
    one = lines[1]
    wins = {p: s.match_wins for p, s in lines.items()}
    opponents = [wins[2], wins[3], wins[4]]
    assert one.buchholz == sum(opponents)
    assert one.median_buchholz == sum(opponents) - max(opponents) - min(opponents)
    by_median = standings(
        players=list(range(1, 9)), results=results, tiebreaks=["match_wins", "median_buchholz"]
    )
    assert [s.player for s in by_median][0] == 2  # three wins


def test_unknown_tiebreak_is_refused():
    assert "median_buchholz" in TIEBREAK_CHOICES and "head_to_head" in TIEBREAK_CHOICES
    with pytest.raises(ValueError, match="unknown tiebreaks"):
        standings(players=[1], results=[], tiebreaks=["coin_toss"])
