"""Table entries on the phones, live: the match's stream carries the table's entry as an
`entry` message (players and organisers only), a rejected entry is shown to both phones
with the reason and can be entered again, and the desk amends an open entry."""

import pytest
from django.test import Client

from games.hand_entries import HandEntry
from games.selectors import match_get
from games.services.table_entries import (
    table_entry_amend,
    table_entry_decide,
    table_entry_dispute,
    table_entry_submit,
)
from tests.live.helpers import Follower
from tests.web.desk.helpers import asgi_server_with_static, organiser, started_with_logins
from tournaments.models import Pairing


@pytest.fixture
def table():
    td = organiser()
    t = started_with_logins(td, rounds=2)
    pairing = Pairing.objects.get(round__tournament=t, table=1)
    match = pairing.match
    anna = match.player1 if match.player1.name == "Anna" else match.player2
    boris = match.player2 if anna == match.player1 else match.player1
    return td, t, pairing, match, anna, boris


def _phone(player):
    client = Client()
    client.force_login(player.user)
    return client


@pytest.mark.django_db
def test_a_rejected_entry_reaches_both_phones_with_the_reason_and_is_entered_again(table):
    td, t, pairing, match, anna, boris = table
    entry = table_entry_submit(
        match_id=match.pk,
        player=anna,
        hand=HandEntry(knocker=anna.pk, knocker_deadwood=4, defender_deadwood=20),
    )
    table_entry_decide(entry_id=entry.pk, by=td, accept=False, note="deadwood was 14")
    url = f"/tables/{match.pk}/"
    for player in (anna, boris):
        page = _phone(player).get(url).content.decode()
        assert f'data-rejected-entry="{entry.pk}"' in page and "deadwood was 14" in page
        assert 'id="hand-form"' in page  # entered again from here
    again = table_entry_submit(
        match_id=match.pk,
        player=boris,
        hand=HandEntry(knocker=anna.pk, knocker_deadwood=4, defender_deadwood=14),
    )
    page = _phone(anna).get(url).content.decode()
    assert "data-rejected-entry" not in page and f'data-entry="{again.pk}"' in page


@pytest.mark.django_db
def test_the_phone_page_follows_the_match_stream_and_answers_its_panel(table):
    td, t, pairing, match, anna, boris = table
    phone = _phone(anna)
    page = phone.get(f"/tables/{match.pk}/").content.decode()
    assert f'data-stream="/api/matches/{match.pk}/stream/?after={match.version}"' in page
    assert "data-live-entries" in page and 'hx-trigger="every' not in page
    part = phone.get(f"/tables/{match.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert part.startswith('<div id="phone-panel"') and "<html" not in part


@pytest.mark.django_db
def test_the_desk_amends_a_disputed_entry_with_the_right_values(table):
    td, t, pairing, match, anna, boris = table
    entry = table_entry_submit(
        match_id=match.pk,
        player=anna,
        hand=HandEntry(knocker=anna.pk, knocker_deadwood=4, defender_deadwood=20),
    )
    table_entry_dispute(entry_id=entry.pk, player=boris, note="it was 14")
    desk = Client()
    desk.force_login(td)
    url = f"/desk/{t.pk}/rounds/1/tables/1/"
    page = desk.get(url).content.decode()
    assert "Amend: enter the right values" in page and 'value="20"' in page
    knocker = "p1" if match.player1 == anna else "p2"
    response = desk.post(
        f"{url}entries/{entry.pk}/amend/",
        {"amend-result": knocker, "amend-knocker_deadwood": "4", "amend-defender_deadwood": "14",
         "note": "counted at the table"},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    entry.refresh_from_db()
    assert entry.status == "amended" and entry.defender_deadwood == 14
    assert "entered as: Anna knock, deadwood 4 / 20" in entry.note
    match = match_get(match_id=match.pk)
    assert match.hand_number == 1
    hand = match.hands.get()
    assert hand.defender_deadwood == 14 and hand.points == 10


@pytest.mark.django_db
def test_an_amend_the_rules_refuse_records_nothing(table):
    from games.errors import RuleError

    td, t, pairing, match, anna, boris = table
    entry = table_entry_submit(
        match_id=match.pk,
        player=anna,
        hand=HandEntry(knocker=anna.pk, knocker_deadwood=4, defender_deadwood=20),
    )
    with pytest.raises(RuleError):
        table_entry_amend(
            entry_id=entry.pk,
            by=td,
            hand=HandEntry(knocker=anna.pk, knocker_deadwood=40, defender_deadwood=20),
        )
    entry.refresh_from_db()
    assert entry.status == "pending" and match_get(match_id=match.pk).hand_number == 0


@pytest.mark.django_db(transaction=True)
def test_the_match_stream_carries_the_table_entry_to_the_players_only(table, settings):
    settings.LIVE_KEEPALIVE_SECONDS = 1
    settings.LIVE_POLL_SECONDS = 0.2
    td, t, pairing, match, anna, boris = table
    from players.services import auth_token_issue

    with asgi_server_with_static() as base:
        url = f"{base}/api/matches/{match.pk}/stream/?after={match.version}"
        token = auth_token_issue(user=boris.user).key
        boris_follows = Follower(url, {"Authorization": f"Token {token}"})
        first = boris_follows.take(1, event="entry")[0]
        assert first.data is None and first.id is None
        entry = table_entry_submit(
            match_id=match.pk,
            player=anna,
            hand=HandEntry(knocker=anna.pk, knocker_deadwood=4, defender_deadwood=20),
        )
        pushed = boris_follows.take(1, event="entry")[0]
        assert pushed.data["id"] == entry.pk and pushed.data["status"] == "pending"
        assert pushed.data["entered_by"] == anna.pk and pushed.data["defender_deadwood"] == 20
        table_entry_decide(entry_id=entry.pk, by=td, accept=False, note="no")
        assert boris_follows.take(1, event="entry")[0].data["status"] == "rejected"
        boris_follows.close()
        # A spectator of the public tournament follows the stream, without entries.
        from django.contrib.auth import get_user_model

        stranger = get_user_model().objects.create_user("stranger", password="x")
        watcher = Follower(url, {"Authorization": f"Token {auth_token_issue(user=stranger).key}"})
        assert [m.event for m in watcher.until_idle()] == ["view"]
        watcher.close()
