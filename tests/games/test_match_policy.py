"""The one policy between games and tournaments (games/policy.py): registered by the setting
GAMES_MATCH_POLICY, loaded by name; without it, everything allowed, nothing hidden, nothing
public. Games send no signal that could refuse anything."""

from __future__ import annotations

import datetime as dt

import pytest

from games import signals
from games.policy import DefaultMatchPolicy, match_policy
from games.selectors import match_is_public, match_list_for, match_visible_to
from tests.games.audit.helpers import tournament_match
from tournaments.selectors.match_policy import TournamentMatchPolicy

pytestmark = pytest.mark.django_db


def test_the_setting_names_the_tournaments_policy():
    assert isinstance(match_policy(), TournamentMatchPolicy)


def test_signals_only_announce_what_committed():
    names = {name for name, value in vars(signals).items() if isinstance(value, signals.Signal)}
    assert names == {
        "match_finished", "match_reopened", "table_entry_changed", "dispute_resolved",
    }  # fmt: skip


def test_without_the_setting_nothing_is_hidden_and_nothing_public(
    settings, organiser, alice, bob, make_player
):
    _, match = tournament_match(organiser, [alice, bob], is_public=False)
    stranger = make_player("Stranger").user
    assert not match_visible_to(user=stranger, match=match)  # a private tournament's

    settings.GAMES_MATCH_POLICY = None
    policy = match_policy()
    assert isinstance(policy, DefaultMatchPolicy)
    assert match_visible_to(user=stranger, match=match)
    assert list(match_list_for(user=stranger)) == [match]
    assert not match_is_public(match=match)
    now = dt.datetime.now(dt.UTC)
    assert policy.check_dispute_open(match_id=match.pk, finished_at=now, at=now) is None
    assert policy.check_result_change(match_id=match.pk, winner_before=1, winner_after=2) is None


def test_the_setting_is_read_again_when_it_changes(settings):
    settings.GAMES_MATCH_POLICY = "games.policy.DefaultMatchPolicy"
    assert type(match_policy()) is DefaultMatchPolicy
    settings.GAMES_MATCH_POLICY = "tournaments.selectors.match_policy.TournamentMatchPolicy"
    assert type(match_policy()) is TournamentMatchPolicy
