"""Whole matches through decide/evolve: start, game and match ends, variants, replay."""

import pytest

from games.engine import (
    IllegalActionError,
    Pass,
    Ruleset,
    decide,
    initial_state,
    needs_deal,
    replay,
    start_match,
)
from games.engine.bot import choose_action
from games.engine.events import GameWon, MatchFinished, MatchStarted
from games.engine.scoresheet import games_won

from .helpers import play_match


def test_start_match():
    events = start_match(ruleset=Ruleset(gin_bonus=20), first_dealer=1)
    assert events == [
        MatchStarted(ruleset=Ruleset(gin_bonus=20).to_dict(), first_dealer=1, mode="online")
    ]
    state = replay(events)
    assert state.status == "in_progress" and state.dealer == 1 and needs_deal(state)
    assert state.ruleset == Ruleset(gin_bonus=20) and len(state.scoresheet.games) == 3


@pytest.mark.parametrize(("dealer", "mode"), [(2, "online"), (-1, "online"), (0, "pub")])
def test_start_match_refuses_bad_input(dealer, mode):
    with pytest.raises(IllegalActionError):
        start_match(ruleset=Ruleset(), first_dealer=dealer, mode=mode)


def test_nothing_before_the_match_starts():
    assert not needs_deal(initial_state())
    with pytest.raises(IllegalActionError, match="not started"):
        decide(initial_state(), Pass(seat=0))


def test_replay_of_the_log_equals_the_state_built_step_by_step():
    state, log = play_match(choose_action, seed=21)
    assert replay(log) == state
    assert state.status == "finished" and state.finish_reason == "games"


def test_three_game_match_ends_when_all_games_have_ended():
    state, log = play_match(choose_action, seed=5)
    assert all(not g.open for g in state.scoresheet.games)
    assert isinstance(log[-1], MatchFinished) and isinstance(log[-2], GameWon)
    assert log[-1].winner == state.winner and max(games_won(state.scoresheet)) >= 2
    assert games_won(state.scoresheet)[state.winner] >= 2


@pytest.mark.parametrize("seed", [1, 2, 5, 8])
def test_end_when_decided_finishes_at_two_games(seed):
    state, log = play_match(choose_action, seed=seed, ruleset=Ruleset(end_when_decided=True))
    assert games_won(state.scoresheet)[state.winner] >= 2
    counts = [0, 0]
    decided_at = None
    for i, event in enumerate(log):
        if isinstance(event, GameWon):
            counts[event.winner] += 1
            if counts[event.winner] == 2:
                decided_at = i
                break
    assert decided_at is not None
    # the match ends in the same decision: only more GameWon events, then MatchFinished
    rest = log[decided_at + 1 :]
    assert all(isinstance(e, GameWon) for e in rest[:-1])
    assert rest[-1] == MatchFinished(winner=state.winner, reason="games")
    assert any(g.open for g in state.scoresheet.games) or len(rest) > 1


def test_plain_gin_is_one_game_to_the_target():
    state, log = play_match(choose_action, seed=3, ruleset=Ruleset(games=1))
    assert len(state.scoresheet.games) == 1
    game = state.scoresheet.games[0]
    assert game.winner == state.winner and game.scores[state.winner] >= 100
    assert all(e.games == [1] for e in log if type(e).__name__ == "HandScored")


def test_game_bonus_shows_in_game_won_events():
    state, log = play_match(choose_action, seed=6, ruleset=Ruleset(game_bonus=100, box_bonus=25))
    for event in log:
        if isinstance(event, GameWon):
            game = state.scoresheet.games[event.game - 1]
            expected = [25 * game.hands_won[0], 25 * game.hands_won[1]]
            expected[event.winner] += 100
            assert event.bonuses == expected and list(game.bonuses) == expected
