import pytest

from tournaments.pairing import TIEBREAKS, Result, standings


def order(rows):
    return [row.player for row in rows]


def test_match_wins_come_first_then_id():
    results = [Result(round=1, player1=1, player2=2, winner=2), Result(1, 3, 4, winner=3)]
    rows = standings(players=[1, 2, 3, 4], results=results)
    assert order(rows) == [2, 3, 1, 4]
    assert [row.rank for row in rows] == [1, 2, 3, 4]  # sequential, never shared


def test_games_won_then_points_difference_break_ties():
    results = [
        Result(1, 1, 2, winner=1, games1=2, games2=1, points1=300, points2=250),
        Result(1, 3, 4, winner=3, games1=3, games2=0, points1=310, points2=100),
        Result(1, 5, 6, winner=5, games1=2, games2=1, points1=400, points2=150),
    ]
    rows = standings(players=[1, 2, 3, 4, 5, 6], results=results)
    assert order(rows)[:3] == [3, 5, 1]  # 3 games; then +250 beats +50
    row = rows[0]
    assert (row.match_wins, row.games_won, row.points_diff, row.played) == (1, 3, 210, 1)


def test_buchholz_and_sonneborn_berger():
    # Round 1: 1 beats 2, 3 beats 4. Round 2: 1 beats 3, 4 beats 2. Round 3: 2 beats 3, 4 beats 1.
    results = [
        Result(1, 1, 2, winner=1),
        Result(1, 3, 4, winner=3),
        Result(2, 1, 3, winner=1),
        Result(2, 4, 2, winner=4),
        Result(3, 2, 3, winner=2),
        Result(3, 4, 1, winner=4),
    ]
    rows = {row.player: row for row in standings(players=[1, 2, 3, 4], results=results)}
    wins = {p: rows[p].match_wins for p in rows}
    assert wins == {1: 2, 2: 1, 3: 1, 4: 2}
    assert rows[1].buchholz == wins[2] + wins[3] + wins[4] == 4
    assert rows[1].sonneborn_berger == wins[2] + wins[3] == 2
    assert rows[4].sonneborn_berger == wins[2] + wins[1] == 3
    by_sb = standings(
        players=[1, 2, 3, 4], results=results, tiebreaks=("match_wins", "sonneborn_berger")
    )
    assert order(by_sb)[:2] == [4, 1]
    by_id = standings(players=[1, 2, 3, 4], results=results, tiebreaks=("match_wins",))
    assert order(by_id) == [1, 4, 2, 3]


def test_buchholz_orders_equal_scores():
    # 1, 2 and 3 win once each; 3 met the two one-win players, 1 and 2 met the winless 4.
    results = [
        Result(1, 3, 2, winner=3),
        Result(1, 1, 4, winner=1),
        Result(2, 2, 4, winner=2),
        Result(2, 1, 3, winner=None),
    ]
    players = [3, 1, 2, 4]
    assert order(standings(players=players, results=results, tiebreaks=("match_wins",))) == [
        1,
        2,
        3,
        4,
    ]
    rows = standings(players=players, results=results, tiebreaks=("match_wins", "buchholz"))
    assert order(rows) == [3, 1, 2, 4]
    assert [row.buchholz for row in rows] == [2, 1, 1, 2]
    assert rows[0].sonneborn_berger == 1 + 1 / 2  # beat 2 (1 win), drew 1 (1 win)


def test_a_bye_is_a_win_that_adds_no_buchholz():
    results = [Result(1, 1, None, winner=1), Result(1, 2, 3, winner=2)]
    rows = {row.player: row for row in standings(players=[1, 2, 3], results=results)}
    assert (rows[1].match_wins, rows[1].byes, rows[1].played, rows[1].buchholz) == (1, 1, 0, 0)
    assert rows[3].buchholz == 1


def test_bad_input_is_rejected():
    with pytest.raises(ValueError):
        standings(players=[1, 2], results=[], tiebreaks=("elo",))
    with pytest.raises(ValueError):
        standings(players=[1, 2], results=[Result(1, 1, 9, winner=1)])
    with pytest.raises(ValueError):
        standings(players=[1, 2], results=[Result(1, 1, 2, winner=3)])
    assert TIEBREAKS[0] == "match_wins"
