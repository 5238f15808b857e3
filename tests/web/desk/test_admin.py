"""The admin's polish: a proper header and names, fields instead of JSON, times entered in
the tournament's zone, saves through the services, no Save where nothing can change, the
scheduler's identity never offered as an organiser, a match linking to its desk page."""

import datetime as dt

import pytest

from eventstore.models import StoredEvent
from tests.factories import UserFactory
from tests.web.desk.helpers import organiser, started
from tournaments.models import Pairing, Tournament
from tournaments.repository import SYSTEM_USERNAME, system_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(user)
    return client


def _add_form(**overrides):
    data = {
        "name": "Berlin open",
        "format": "swiss",
        "rounds_planned": "3",
        "play_mode": "table",
        "check_in_required": "on",
        "is_public": "on",
        "time_zone": "Europe/Berlin",
        "starts_at_0": "2026-03-03",
        "starts_at_1": "19:30",
        "round_starts_text": "",
        "games": "3",
        "knock_limit": "8",
        "gin_bonus": "25",
        "undercut_bonus": "10",
        "game_target": "100",
        "game_bonus": "0",
        "box_bonus": "0",
        "tiebreak_1": "match_wins",
        "tiebreak_2": "buchholz",
        "registrations-TOTAL_FORMS": "0",
        "registrations-INITIAL_FORMS": "0",
        "rounds-TOTAL_FORMS": "0",
        "rounds-INITIAL_FORMS": "0",
        "standings-TOTAL_FORMS": "0",
        "standings-INITIAL_FORMS": "0",
    }
    return {**data, **overrides}


def test_header_and_names(admin_client):
    page = admin_client.get("/admin/").content.decode()
    assert "Hollywood Gin administration" in page
    assert "Matches" in page and "Matchs" not in page


def test_add_a_tournament_in_its_zone_through_the_service(admin_client):
    system_user()
    page = admin_client.get("/admin/tournaments/tournament/add/").content.decode()
    assert 'name="knock_limit"' in page and 'name="tiebreak_1"' in page
    assert 'name="ruleset"' not in page and 'name="tiebreaks"' not in page
    assert f">{SYSTEM_USERNAME}<" not in page  # not offered as an organiser
    response = admin_client.post("/admin/tournaments/tournament/add/", _add_form())
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get(name="Berlin open")
    assert t.starts_at == dt.datetime(2026, 3, 3, 18, 30, tzinfo=dt.UTC)  # 19:30 CET
    assert t.ruleset["knock_limit"] == 8
    assert t.tiebreaks == ["match_wins", "buchholz"]
    assert StoredEvent.objects.filter(stream_id=f"tournament-{t.pk}").exists()
    change = admin_client.get(f"/admin/tournaments/tournament/{t.pk}/change/").content.decode()
    assert 'value="19:30:00"' in change or 'value="19:30"' in change
    assert f"/desk/{t.pk}/" in change


def test_bad_ruleset_and_round_starts_are_form_errors(admin_client):
    response = admin_client.post(
        "/admin/tournaments/tournament/add/",
        _add_form(knock_limit="11", round_starts_text="tomorrow"),
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "less than or equal to 10" in page and "not a time" in page
    response = admin_client.post(
        "/admin/tournaments/tournament/add/",
        _add_form(time_zone="Mars/Base", round_starts_text="2026-03-03 19:30"),
    )
    assert response.status_code == 200 and "unknown time zone" in response.content.decode()
    assert not Tournament.objects.exists()


def test_rounds_and_pairings_have_no_save_and_matches_link_to_the_desk(admin_client):
    t = started(organiser(), players=2)
    round_ = t.rounds.get()
    page = admin_client.get(f"/admin/tournaments/round/{round_.pk}/change/").content.decode()
    assert 'name="_save"' not in page
    pairing = Pairing.objects.get(round=round_)
    page = admin_client.get(f"/admin/games/match/{pairing.match_id}/change/").content.decode()
    assert f"/desk/matches/{pairing.match_id}/" in page
    assert 'name="_save"' not in page
    response = admin_client.get(f"/desk/matches/{pairing.match_id}/")
    assert response["Location"] == f"/desk/{t.pk}/rounds/1/tables/1/"


def test_a_change_in_the_admin_is_a_settings_event_in_the_zone(admin_client):
    from tournaments.selectors import tournament_stream_events

    admin_client.post("/admin/tournaments/tournament/add/", _add_form())
    t = Tournament.objects.get(name="Berlin open")
    data = _add_form(starts_at_1="20:00", knock_limit="7", tiebreak_2="")
    data["organisers"] = list(t.organisers.values_list("pk", flat=True))
    for key in ("format", "rounds_planned", "check_in_required", "round_starts_text"):
        data.pop(key)
    response = admin_client.post(f"/admin/tournaments/tournament/{t.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    t.refresh_from_db()
    assert t.starts_at == dt.datetime(2026, 3, 3, 19, 0, tzinfo=dt.UTC)  # 20:00 CET
    assert t.ruleset["knock_limit"] == 7 and t.tiebreaks == ["match_wins"]
    last = tournament_stream_events(tournament=t)[-1]
    assert last.type == "SettingsChanged"
    assert set(last.data["changes"]) == {"starts_at", "ruleset", "tiebreaks"}
