"""The replay page (server side): who may open it, and what its embedded data holds."""

import json
import re

import pytest

from tests.factories import UserFactory
from tests.games.audit.helpers import finished_match, match_in_play
from tests.helpers import assets_from_elsewhere

pytestmark = pytest.mark.django_db


def _data(response):
    found = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    return json.loads(found.group(1))


def test_a_player_opens_the_replay_with_every_event(client, alice, bob):
    match = finished_match(alice, bob)
    client.force_login(alice.user)
    response = client.get(f"/matches/{match.pk}/replay/")
    assert response.status_code == 200
    page = response.content.decode()
    for asset in ("replay/replay.js", "replay/verify.js", "replay/cards.js", "replay/replay.css"):
        assert f"/static/{asset}" in page
    assert assets_from_elsewhere(page) == []
    data = _data(response)
    assert len(data["events"]) == match.version
    assert 'id="dispute-form"' in page
    _links_the_audit(page, match, shown=True)


def _links_the_audit(page, match, *, shown):
    """The download link goes to /audit/ (never the old /bundle/) and names
    tools/verify_match.py (never the old verify_bundle.py); `shown`: the link is there."""
    assert (f'href="/api/matches/{match.pk}/audit/"' in page) is shown
    assert "verify_match.py" in page or not shown
    assert "/bundle/" not in page and "verify_bundle" not in page


def test_a_visitor_is_sent_to_sign_in_and_a_stranger_gets_404(client, alice, bob):
    match = finished_match(alice, bob)
    response = client.get(f"/matches/{match.pk}/replay/")
    assert response.status_code == 302
    assert response["Location"].startswith("/api-auth/login/?next=")
    client.force_login(UserFactory())
    assert client.get(f"/matches/{match.pk}/replay/").status_code == 404
    assert client.get("/matches/00000000-0000-0000-0000-000000000000/replay/").status_code == 404


def test_staff_see_a_hand_in_play_without_its_cards(client, alice, bob):
    match = match_in_play(alice, bob, moves=2)
    client.force_login(UserFactory(is_staff=True))
    data = _data(client.get(f"/matches/{match.pk}/replay/"))
    assert data["auditor"] is True
    hidden = {str(p["id"]): None for p in data["players"]}  # by player id
    assert all(e["table"]["hands"] == hidden for e in data["events"])
    assert 'id="dispute-form"' not in client.get(f"/matches/{match.pk}/replay/").content.decode()


def test_the_static_files_exist():
    from django.contrib.staticfiles import finders

    for asset in ("replay/replay.js", "replay/verify.js", "replay/cards.js", "replay/replay.css"):
        assert finders.find(asset), asset


@pytest.mark.django_db(transaction=True)
def test_a_visitor_replays_a_finished_public_tournament_match_in_full(client):
    """Issue 12: the finished hands of a public tournament's match are for everyone."""
    from demo.simulation import tournament_simulate
    from games.models import Match

    tournament = tournament_simulate(
        players=2, format="round_robin", rounds=None,
        ruleset={"game_target": 10, "games": 1}, progress=False,
    )  # fmt: skip
    match = Match.objects.filter(pk__in=_match_ids_of(tournament)).first()
    assert match.status == Match.Status.FINISHED
    response = client.get(f"/matches/{match.pk}/replay/")
    assert response.status_code == 200
    data = _data(response)
    assert data["auditor"] is False and data["your_seat"] is None
    assert data["may_download_bundle"] is True
    assert len(data["events"]) == match.version
    deals = [e for e in data["events"] if e["type"] == "HandDealt"]
    assert deals and all("deck" in e["data"] and "salt" in e["data"] for e in deals)
    after_deal = [e for e in data["events"] if e["version"] > deals[0]["version"]]
    assert all(None not in e["table"]["hands"].values() for e in after_deal[:5])
    assert 'id="dispute-form"' not in response.content.decode()
    _links_the_audit(response.content.decode(), match, shown=True)
    _links_the_audit(client.get(f"/matches/{match.pk}/").content.decode(), match, shown=True)


def test_a_visitor_gets_no_bundle_link_for_a_public_match_in_play(client, alice, bob, organiser):
    from tests.games.audit.helpers import play_until_hand, tournament_match

    _, match = tournament_match(organiser, [alice, bob], is_public=True)
    match = play_until_hand(match, 1)
    response = client.get(f"/matches/{match.pk}/replay/")
    assert response.status_code == 200
    assert _data(response)["may_download_bundle"] is False
    _links_the_audit(response.content.decode(), match, shown=False)
    _links_the_audit(client.get(f"/matches/{match.pk}/").content.decode(), match, shown=False)
    client.force_login(alice.user)  # a player may, while it is in play too
    _links_the_audit(client.get(f"/matches/{match.pk}/").content.decode(), match, shown=True)


# --- times in the tournament's zone; deals an organiser chose -------------------------------


def test_the_replay_names_the_tournament_s_zone_and_a_friendly_s_utc(client, alice, bob, organiser):
    from tests.games.audit.helpers import tournament_match

    _, match = tournament_match(organiser, [alice, bob], time_zone="Europe/Berlin")
    client.force_login(alice.user)
    page = client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert 'data-time-zone="Europe/Berlin"' in page
    assert "times in <bdi>Europe/Berlin</bdi>" in page
    friendly = finished_match(alice, bob)
    page = client.get(f"/matches/{friendly.pk}/replay/").content.decode()
    assert 'data-time-zone="UTC"' in page and "times in <bdi>UTC</bdi>" in page


def test_a_replay_of_chosen_deals_is_marked_and_a_tournament_s_is_not(
    client, alice, bob, organiser
):
    from games.services import match_create
    from tests.games.audit.helpers import tournament_match

    client.force_login(alice.user)
    seeded = finished_match(alice, bob)  # an organiser's seed
    response = client.get(f"/matches/{seeded.pk}/replay/")
    assert _data(response)["preset_deals"] is True
    page = response.content.decode()
    assert 'id="preset-deals"' in page and "Deals chosen by the organiser" in page
    for match in (
        match_create(player1=alice, player2=bob),  # a friendly dealt at random
        tournament_match(organiser, [alice, bob])[1],
    ):
        response = client.get(f"/matches/{match.pk}/replay/")
        assert _data(response)["preset_deals"] is False
        page = response.content.decode()
        assert 'id="preset-deals"' not in page and "Deals chosen by the organiser" not in page


def test_the_technical_words_have_a_plain_sentence_beside_them(client, alice, bob):
    """SHA-256, the verifier's command and the event version each with words for players."""
    match = finished_match(alice, bob)
    client.force_login(alice.user)
    page = client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert "WebCrypto SHA-256" in page
    assert "In plain words: before each hand the server fixed the order of the deck" in page
    assert "tools/verify_match.py" in page and "anyone can check it on their own computer" in page
    assert 'id="sheet-lines"' not in page  # an online match shows its card table
    match_page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"event version {match.version}" in match_page
    assert f"record holds {match.version} steps so far" in match_page
    assert "anyone can check it on their own computer" in match_page


def _match_ids_of(tournament):
    """The ids of the tournament's matches (a query to filter matches by)."""
    from tournaments.models import Pairing

    return Pairing.objects.filter(round__tournament=tournament).values("match_id")
