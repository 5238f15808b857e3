"""The round page's way out of a stuck table: its match finished but the result never
reached the pairing (a lost job). The desk shows "Take the result from the match"; posting
it records the result."""

import pytest

from tests.tournaments.helpers import record_gins
from tests.web.desk.helpers import organiser, started
from tournaments import jobs
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db

BUTTON = "Take the result from the match"


def _stuck(td, monkeypatch):
    t = started(td, players=2, ruleset={"game_target": 25, "end_when_decided": True})
    pairing = Pairing.objects.get(round__tournament=t, table=1)
    monkeypatch.setattr(jobs, "enqueue_in_tx", lambda **kwargs: None)  # the job is lost
    record_gins(pairing.match_id, td, pairing.player1)
    monkeypatch.undo()
    pairing.refresh_from_db()
    assert pairing.status == "pending" and pairing.match.status == "finished"
    return t, pairing


def test_a_stuck_table_offers_the_button_and_posting_it_takes_the_result(client, td, monkeypatch):
    t, pairing = _stuck(td, monkeypatch)
    page = client.get(f"/desk/{t.pk}/rounds/1/").content.decode()
    assert BUTTON in page
    assert f'action="/desk/{t.pk}/rounds/1/results/take/"' in page
    response = client.post(f"/desk/{t.pk}/rounds/1/results/take/")
    assert response.status_code == 302
    pairing.refresh_from_db()
    assert pairing.status == "finished" and pairing.winner_id == pairing.player1_id
    after = client.get(response["Location"]).content.decode()
    assert BUTTON not in after and "1 result taken from the matches" in after


def test_no_button_while_the_match_is_in_play(client, td):
    t = started(td, players=2)
    assert BUTTON not in client.get(f"/desk/{t.pk}/rounds/1/").content.decode()


def test_a_stranger_may_not_take_the_results(client, td, monkeypatch):
    t, pairing = _stuck(td, monkeypatch)
    client.force_login(organiser("other"))
    response = client.post(f"/desk/{t.pk}/rounds/1/results/take/")
    assert response.status_code in (302, 403, 404)
    pairing.refresh_from_db()
    assert pairing.status == "pending"


def test_get_is_refused(client, td):
    t = started(td, players=2)
    assert client.get(f"/desk/{t.pk}/rounds/1/results/take/").status_code == 405
