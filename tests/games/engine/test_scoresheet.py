"""RULES 8: the Hollywood scoresheet, its variants and end-of-game bonuses."""

import pytest

from games.engine import Ruleset
from games.engine.scoresheet import (
    games_won,
    match_winner,
    scoresheet_new,
    scoresheet_to_dict,
    scoresheet_totals,
    scoresheet_win,
)

ALEXANDRA, BOB = 0, 1


def _play(wins, ruleset=None):
    ruleset = ruleset or Ruleset()
    sheet = scoresheet_new(ruleset)
    log = []
    for seat, points in wins:
        sheet, scored, won = scoresheet_win(sheet, seat=seat, points=points, ruleset=ruleset)
        log.append((scored, won))
    return sheet, log


def _standings(sheet, seat):
    return [g.scores[seat] for g in sheet.games]


def test_worked_example_exactly():
    sheet, log = _play([(BOB, 10), (ALEXANDRA, 18), (BOB, 30), (BOB, 4)])
    assert [scored for scored, _ in log] == [[1], [1], [1, 2], [1, 2, 3]]
    assert _standings(sheet, ALEXANDRA) == [18, 0, 0]
    assert _standings(sheet, BOB) == [44, 34, 4]
    assert all(g.open for g in sheet.games)
    assert match_winner(sheet, Ruleset()) is None


def test_worked_example_step_by_step():
    ruleset = Ruleset()
    sheet = scoresheet_new(ruleset)
    steps = [
        (BOB, 10, [[0, 10], [0, 0], [0, 0]]),
        (ALEXANDRA, 18, [[18, 10], [0, 0], [0, 0]]),
        (BOB, 30, [[18, 40], [0, 30], [0, 0]]),
        (BOB, 4, [[18, 44], [0, 34], [0, 4]]),
    ]
    for seat, points, expected in steps:
        sheet, _, _ = scoresheet_win(sheet, seat=seat, points=points, ruleset=ruleset)
        assert [list(g.scores) for g in sheet.games] == expected


def test_game_closes_at_the_target_and_later_points_skip_it():
    sheet, log = _play([(BOB, 60), (BOB, 45), (BOB, 5)])
    # game 1: 60 + 45 = 105 >= 100 closes; game 2 got 45; game 3 not entered until win 3
    assert log[1] == ([1, 2], [1])
    assert sheet.games[0].winner == BOB and sheet.games[0].scores == (0, 105)
    assert log[2] == ([2, 3], [])  # game 1 closed: the points go to open games only
    assert _standings(sheet, BOB) == [105, 50, 5]


def test_exactly_reaching_the_target_ends_the_game():
    sheet, log = _play([(ALEXANDRA, 100)])
    assert log == [([1], [1])] and sheet.games[0].winner == ALEXANDRA


def test_shut_out_player_enters_the_next_open_game():
    sheet, log = _play([(BOB, 60), (BOB, 50), (ALEXANDRA, 20), (ALEXANDRA, 7)])
    assert sheet.games[0].winner == BOB and sheet.games[0].scores == (0, 110)
    # Alexandra's first win is her first score in game 2, not game 1 (closed)
    assert log[2] == ([2], [])
    assert log[3] == ([2, 3], [])
    assert _standings(sheet, ALEXANDRA) == [0, 27, 7]
    assert sheet.games[0].entered == (False, True)


def test_one_win_can_close_several_games_and_finish_the_match():
    sheet, log = _play([(BOB, 1), (BOB, 60), (BOB, 40)])
    assert _standings(sheet, BOB) == [101, 100, 40]
    assert log[-1] == ([1, 2, 3], [1, 2])
    assert match_winner(sheet, Ruleset()) is None
    sheet, log = _play([(BOB, 1), (BOB, 60), (BOB, 40), (BOB, 60)])
    assert log[-1] == ([3], [3])
    assert games_won(sheet) == (0, 3) and match_winner(sheet, Ruleset()) == BOB


def test_match_ends_when_all_three_games_have_ended():
    wins = [(BOB, 100), (ALEXANDRA, 100), (ALEXANDRA, 1)]
    sheet, log = _play(wins)
    # game 1 Bob, game 2 Alexandra (her first entry after being shut out of game 1)
    assert [g.winner for g in sheet.games] == [BOB, ALEXANDRA, None]
    assert match_winner(sheet, Ruleset()) is None
    sheet, _ = _play([*wins, (BOB, 99)])
    assert match_winner(sheet, Ruleset()) is None  # game 3: Bob 99 + ... not yet 100
    sheet, _ = _play([*wins, (BOB, 99), (BOB, 1)])
    assert [g.winner for g in sheet.games] == [BOB, ALEXANDRA, BOB]
    assert match_winner(sheet, Ruleset()) == BOB


def test_end_when_decided_variant():
    wins = [(BOB, 60), (BOB, 50), (BOB, 50)]
    sheet, _ = _play(wins)
    assert games_won(sheet) == (0, 2)
    assert [g.winner for g in sheet.games] == [BOB, BOB, None]
    assert match_winner(sheet, Ruleset()) is None
    assert match_winner(sheet, Ruleset(end_when_decided=True)) == BOB


def test_plain_gin_variant_is_one_game():
    ruleset = Ruleset(games=1)
    sheet, log = _play([(BOB, 10), (BOB, 30), (ALEXANDRA, 95), (ALEXANDRA, 5)], ruleset)
    assert len(sheet.games) == 1
    assert [scored for scored, _ in log] == [[1], [1], [1], [1]]
    assert sheet.games[0].winner == ALEXANDRA and sheet.games[0].scores == (100, 40)
    assert match_winner(sheet, ruleset) == ALEXANDRA


def test_game_target_variant():
    ruleset = Ruleset(game_target=50)
    sheet, log = _play([(BOB, 50)], ruleset)
    assert log == [([1], [1])]


def test_no_bonuses_by_default():
    sheet, _ = _play([(BOB, 60), (ALEXANDRA, 10), (BOB, 50)])
    assert sheet.games[0].bonuses == (0, 0) and sheet.games[0].totals == (10, 110)


def test_game_bonus_variant():
    sheet, _ = _play([(BOB, 60), (ALEXANDRA, 10), (BOB, 50)], Ruleset(game_bonus=100))
    assert sheet.games[0].bonuses == (0, 100)
    assert sheet.games[0].totals == (10, 210)
    assert sheet.games[1].bonuses == (0, 0)  # still open


def test_box_bonus_variant_counts_hands_won_in_that_game():
    ruleset = Ruleset(box_bonus=25)
    sheet, _ = _play([(BOB, 60), (ALEXANDRA, 10), (ALEXANDRA, 5), (BOB, 50)], ruleset)
    game1 = sheet.games[0]
    assert game1.hands_won == (2, 2) and game1.bonuses == (50, 50)
    assert sheet.games[1].hands_won == (1, 1)  # Bob's 50 and Alexandra's 5


def test_shutout_doubles_variant():
    ruleset = Ruleset(shutout_doubles=True)
    sheet, _ = _play([(BOB, 60), (BOB, 50)], ruleset)
    assert sheet.games[0].scores == (0, 110) and sheet.games[0].totals == (0, 220)
    sheet, _ = _play([(BOB, 60), (ALEXANDRA, 1), (BOB, 50)], ruleset)
    assert sheet.games[0].totals == (1, 110)  # not a shutout


def test_all_bonuses_together():
    ruleset = Ruleset(game_bonus=100, box_bonus=25, shutout_doubles=True)
    sheet, _ = _play([(BOB, 60), (BOB, 50)], ruleset)
    # (110 points + 100 game + 2 x 25 box) doubled
    assert sheet.games[0].totals == (0, 2 * (110 + 100 + 50))


def test_scoresheet_dict():
    sheet, _ = _play([(BOB, 10), (ALEXANDRA, 18), (BOB, 30), (BOB, 4)])
    data = scoresheet_to_dict(sheet)
    assert data["games"][0] == {
        "game": 1,
        "scores": [18, 44],
        "entered": [True, True],
        "winner": None,
        "hands_won": [1, 3],
        "bonuses": [0, 0],
        "totals": [18, 44],
    }
    assert data["totals"] == [18, 82] == list(scoresheet_totals(sheet))
    assert data["games_won"] == [0, 0]


@pytest.mark.parametrize("games", [1, 3])
def test_new_sheet(games):
    sheet = scoresheet_new(Ruleset(games=games))
    assert len(sheet.games) == games and all(g.open for g in sheet.games)
