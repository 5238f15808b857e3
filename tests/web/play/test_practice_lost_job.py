"""A practice bot's job that is lost (the broker never got it, or it failed) does not leave
the player waiting: the player's next look at the match through the API queues the bot
again, and the play page looks again by itself when it has heard nothing for a while."""

import pytest
from rest_framework.test import APIClient

from games.engine.bot import choose_action
from games.selectors import match_state_at
from tests.web.play.helpers import PASSWORD, players

pytestmark = pytest.mark.django_db


def _lose_jobs(monkeypatch) -> list[int]:
    """Every job relayed from now on is dropped (as if the broker lost it); returns the
    dropped messages' ids."""
    lost: list[int] = []
    monkeypatch.setattr("core.outbox.relay", lambda *, message_id: lost.append(message_id))
    return lost


def _bot_to_move(ada, monkeypatch, capture):
    """A practice match where Ada has moved and the bot's job was lost."""
    from games.services import match_act
    from games.services.practice import practice_start

    with capture(execute=True):
        match = practice_start(player=ada, ruleset={"game_target": 25, "games": 1}, seed="lost")
    lost = _lose_jobs(monkeypatch)
    state, version = match_state_at(match=match)
    while state.turn == 0:  # Ada moves (a draw, then a discard) until the bot is to move
        with capture(execute=True):
            match_act(
                match_id=match.pk,
                player=ada,
                action=choose_action(state, 0),
                expected_version=version,
            )
        state, version = match_state_at(match=match)
    assert lost and state.turn == 1 and state.status == "in_progress"
    monkeypatch.undo()
    return match, version


def test_the_players_look_at_the_match_queues_the_lost_bot_again(
    monkeypatch, django_capture_on_commit_callbacks
):
    ada, ben = players("Ada", "Ben")
    match, version = _bot_to_move(ada, monkeypatch, django_capture_on_commit_callbacks)
    # Someone else's look (an organiser, a spectator) changes nothing.
    spectator = APIClient()
    assert spectator.login(username="ben", password=PASSWORD)
    with django_capture_on_commit_callbacks(execute=True):
        assert spectator.get(f"/api/matches/{match.pk}/").status_code in (200, 404)
    assert match_state_at(match=match)[1] == version
    client = APIClient()
    assert client.login(username="ada", password=PASSWORD)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.get(f"/api/matches/{match.pk}/")
    assert answer.status_code == 200
    state, now = match_state_at(match=match)
    assert now > version and (state.turn == 0 or state.status != "in_progress")


def test_a_failed_eager_job_stays_in_the_outbox_and_is_logged(
    caplog, monkeypatch, django_capture_on_commit_callbacks
):
    from core.models import OutboxMessage
    from core.outbox import enqueue_in_tx

    def boom(*, match_id, version):
        raise RuntimeError("the bot tripped")

    monkeypatch.setattr("games.services.practice.practice_bot_play", boom)
    with django_capture_on_commit_callbacks(execute=True):
        enqueue_in_tx(task="games.practice_bot_move", args=("m", 3))
    message = OutboxMessage.objects.get()
    assert message.sent_at is None and "the bot tripped" in message.last_error
    assert "the outbox drain will send it" in caplog.text


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_play_page_goes_on_when_the_bots_job_is_lost(asgi, browser, monkeypatch):
    from core import outbox
    from games.models import Match
    from games.services import practice
    from tests.web.play.browser import act, sign_in, version

    start = practice.practice_start
    monkeypatch.setattr(
        "web.play.views.practice_start",
        lambda **kw: start(**kw, ruleset={"game_target": 25, "games": 1}, seed="lost-page"),
    )
    players("Ada")
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_in(page, asgi, "ada", PASSWORD)
    page.goto(f"{asgi}/play/")
    page.click("[data-action=practice]")
    page.wait_for_selector("[data-live-indicator][data-state=live]")
    page.wait_for_function(
        "['first-turn', 'draw'].includes(document.getElementById('play').dataset.phase)"
    )
    relay, lost = outbox.relay, []

    def lose_the_first(*, message_id):
        if not lost:
            lost.append(message_id)
            return False
        return relay(message_id=message_id)

    monkeypatch.setattr("core.outbox.relay", lose_the_first)
    while not lost:  # Ada moves until her move leaves the bot to move: its job is lost
        act(page)
    match = Match.objects.get(practice=True)
    at = match.version
    # No stream message comes (the bot never moved); the page looks again by itself and
    # the bot, queued again, moves: the page offers Ada her next move.
    page.wait_for_function(
        "() => ['draw', 'first-turn', 'hand-over', 'match-over']"
        ".includes(document.getElementById('play').dataset.phase)",
        timeout=60_000,
    )
    match.refresh_from_db()
    assert match.version > at and version(page) == match.version
