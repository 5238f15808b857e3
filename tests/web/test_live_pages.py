"""Live pages without a browser: the public tournament page, the match page and the desk's
round page name their stream and the part web/live.js asks for again, answer that part
alone when asked with HX-Request, and reload nothing by themselves."""

import pytest

from games.hand_entries import HandEntry
from games.models import Match
from games.services import match_record_hand
from tests.web.desk.helpers import organiser, started, started_with_logins
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def td():
    return organiser()


def test_the_tournament_page_follows_its_stream_and_answers_its_live_part(client, td):
    t = started(td, players=4)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert f'data-stream="/api/tournaments/{t.pk}/stream/?after={t.version}"' in page
    assert 'data-live-target="#tournament-live"' in page and "web/live.js" in page
    assert "http-equiv" not in page and "location.reload" not in page
    part = client.get(f"/tournaments/{t.pk}/", **HX).content.decode()
    assert part.startswith('<div id="tournament-live">') and "<html" not in part
    assert "Standings" in part and "Round 1" in part and "Player 01" in part


def _gin(td, match, capture) -> None:
    """A gin that wins a one-game match to 10; the result reaches the tournament after
    commit (the match-finished job, run in process)."""
    with capture(execute=True):
        match_record_hand(
            match_id=match.pk,
            by=td,
            hand=HandEntry(
                knocker=match.player1.pk, knocker_deadwood=0, defender_deadwood=30, gin=True
            ),
        )


def test_the_tournament_page_updates_what_a_result_changes(
    client, td, django_capture_on_commit_callbacks
):
    t = started(td, players=2, ruleset={"game_target": 10, "games": 1})
    match = Pairing.objects.get(round__tournament=t, table=1).match
    before = client.get(f"/tournaments/{t.pk}/", **HX).content.decode()
    _gin(td, match, django_capture_on_commit_callbacks)
    after = client.get(f"/tournaments/{t.pk}/", **HX).content.decode()
    assert ">1–0<" not in before and ">1–0<" in after


def test_a_finished_tournament_follows_nothing(client, td, django_capture_on_commit_callbacks):
    t = started(td, players=2, rounds=1, ruleset={"game_target": 10, "games": 1})
    match = Pairing.objects.get(round__tournament=t, table=1).match
    _gin(td, match, django_capture_on_commit_callbacks)
    t.refresh_from_db()
    assert t.status == "finished"
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "data-stream" not in page and "data-live-url" not in page


def test_the_match_page_streams_for_the_signed_in_and_polls_for_visitors(client, td):
    t = started_with_logins(td)
    match = Pairing.objects.get(round__tournament=t, table=1).match
    anonymous = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-live-url="/matches/' in anonymous and "data-stream" not in anonymous
    client.force_login(td)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'data-stream="/api/matches/{match.pk}/stream/?after={match.version}"' in page
    part = client.get(f"/matches/{match.pk}/", **HX).content.decode()
    assert part.startswith('<div id="match-live">') and "Scoresheet" in part
    assert "<html" not in part


def test_the_desk_round_follows_the_stream_and_refreshes_the_clock(client, td):
    t = started(td, players=4)
    client.force_login(td)
    page = client.get(f"/desk/{t.pk}/rounds/1/").content.decode()
    assert f'data-stream="/api/tournaments/{t.pk}/stream/?after={t.version}"' in page
    assert 'data-live-target="#round-tables"' in page and 'data-live-every="30"' in page
    assert "hx-trigger" not in page  # the timer is live.js's, not a second poll
    part = client.get(f"/desk/{t.pk}/rounds/1/", **HX).content.decode()
    assert part.startswith('<div id="round-tables">') and "<html" not in part
    assert "open disputes" in part


def test_a_stranger_gets_no_live_part_of_a_private_tournament(client, td):
    t = started(td, players=2, is_public=False)
    assert client.get(f"/tournaments/{t.pk}/", **HX).status_code == 404
    match = Pairing.objects.get(round__tournament=t, table=1).match
    assert client.get(f"/matches/{match.pk}/", **HX).status_code == 404
    assert Match.objects.filter(pk=match.pk).exists()
