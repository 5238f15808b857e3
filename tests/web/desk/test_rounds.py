"""The desk during a round: table statuses, entering hands (validated by the services,
errors on the form, nothing written), correcting and voiding an earlier hand, re-pairing
a round nobody has started, and the next round paired once the last result is in."""

import pytest

from games.models import Match
from tests.web.desk.helpers import started, version_of
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db

SHORT = {"game_target": 10, "games": 1}  # one hand of 10+ points wins the match


def _table_url(t, number=1, table=1):
    return f"/desk/{t.pk}/rounds/{number}/tables/{table}/"


def _enter(client, t, table=1, number=1, **data):
    url = _table_url(t, number, table)
    version = version_of(client.get(url).content.decode())
    return client.post(url, {"version": version, **data})


def test_a_hand_entered_shows_on_the_scoresheet_and_the_round(client, td):
    t = started(td, players=4)
    response = _enter(client, t, result="p1", knocker_deadwood="3", defender_deadwood="20")
    assert response.status_code == 302
    match = Pairing.objects.get(round__tournament=t, table=1).match
    match.refresh_from_db()
    hand = match.hands.get()
    assert (hand.knocker_id, hand.points, hand.games) == (match.player1_id, 17, [1])
    page = client.get(_table_url(t)).content.decode()
    assert "Enter hand 2" in page and "17" in page
    round_page = client.get(f"/desk/{t.pk}/rounds/1/").content.decode()
    assert "in play" in round_page and "waiting" in round_page


def test_a_knock_over_the_limit_is_a_form_error_and_writes_nothing(client, td):
    t = started(td, players=2)
    match = Pairing.objects.get(round__tournament=t, table=1).match
    before = match.version
    response = _enter(client, t, result="p2", knocker_deadwood="11", defender_deadwood="30")
    assert response.status_code == 400
    assert "knock" in response.content.decode().lower()
    match.refresh_from_db()
    assert match.version == before and not match.hands.exists()


def test_gin_with_deadwood_is_refused(client, td):
    t = started(td, players=2)
    response = _enter(
        client, t, result="p1", gin="on", knocker_deadwood="4", defender_deadwood="30"
    )
    assert response.status_code == 400
    assert not Pairing.objects.get(round__tournament=t).match.hands.exists()


def test_missing_deadwood_and_no_result_are_form_errors(client, td):
    t = started(td, players=2)
    assert _enter(client, t, result="p1", knocker_deadwood="2").status_code == 400
    assert _enter(client, t).status_code == 400
    assert not Pairing.objects.get(round__tournament=t).match.hands.exists()


def test_the_same_form_sent_twice_enters_one_hand(client, td):
    t = started(td, players=2)
    url = _table_url(t)
    version = version_of(client.get(url).content.decode())
    data = {"version": version, "result": "drawn"}
    assert client.post(url, data).status_code == 302
    second = client.post(url, data)
    assert second.status_code == 400
    assert "the scoresheet changed since this page was loaded" in second.content.decode()
    assert Pairing.objects.get(round__tournament=t).match.hands.count() == 1


def test_correct_and_void_an_earlier_hand(client, td):
    t = started(td, players=2)
    _enter(client, t, result="p1", knocker_deadwood="3", defender_deadwood="20")
    _enter(client, t, result="p2", knocker_deadwood="5", defender_deadwood="9")
    match = Pairing.objects.get(round__tournament=t).match
    url = _table_url(t) + "hands/1/"
    page = client.get(url).content.decode()
    assert "Correct hand 1" in page
    # No reason: refused, nothing changes.
    response = client.post(
        url, {"result": "p1", "knocker_deadwood": "3", "defender_deadwood": "40"}
    )
    assert response.status_code == 400
    response = client.post(
        url,
        {
            "result": "p1",
            "knocker_deadwood": "3",
            "defender_deadwood": "40",
            "reason": "defender miscounted",
        },
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.hands.get(hand_number=1).points == 37
    response = client.post(_table_url(t) + "hands/2/", {"void-reason": "misdeal"})
    assert response.status_code == 302
    assert match.hands.get(hand_number=2).voided


def test_an_unknown_table_or_hand_is_404(client, td):
    t = started(td, players=2)
    assert client.get(_table_url(t, table=9)).status_code == 404
    assert client.get(_table_url(t) + "hands/5/").status_code == 404
    assert client.get(f"/desk/{t.pk}/rounds/7/").status_code == 404


def test_repair_before_play_and_refused_after(client, td):
    t = started(td, players=4)
    old = set(Pairing.objects.filter(round__tournament=t).values_list("match_id", flat=True))
    page = client.get(f"/desk/{t.pk}/rounds/1/").content.decode()
    response = client.post(
        f"/desk/{t.pk}/rounds/1/repair/",
        {"reason": "a player swapped seats", "version": version_of(page)},
    )
    assert response.status_code == 302
    new = set(Pairing.objects.filter(round__tournament=t).values_list("match_id", flat=True))
    assert not old & new
    assert all(Match.objects.get(pk=m).status == "finished" for m in old)  # cancelled
    _enter(client, t, result="drawn")
    page = client.get(f"/desk/{t.pk}/rounds/1/").content.decode()
    assert "Re-pair this round" not in page
    t.refresh_from_db()
    response = client.post(
        f"/desk/{t.pk}/rounds/1/repair/", {"reason": "again", "version": str(t.version)}
    )
    assert response.status_code == 400
    assert "has started" in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_last_result_of_a_round_pairs_the_next(client, td):
    t = started(td, players=4, ruleset=SHORT)
    for table in (1, 2):
        response = _enter(
            client, t, table=table, result="p1", knocker_deadwood="0", gin="on",
            defender_deadwood="5",
        )  # fmt: skip
        assert response.status_code == 302
    t.refresh_from_db()
    assert t.current_round == 2
    page = client.get(f"/desk/{t.pk}/rounds/1/").content.decode()
    assert "Round complete" in page and "Round 2's pairings" in page
    assert client.get(f"/desk/{t.pk}/rounds/2/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_scheduled_next_round_can_be_paired_early_from_the_desk(client, td):
    import datetime as dt

    from django.utils import timezone

    t = started(
        td,
        players=2,
        ruleset=SHORT,
        starts_at=timezone.now() + dt.timedelta(days=1),
        round_interval=dt.timedelta(days=1),
    )
    _enter(client, t, result="p1", gin="on", knocker_deadwood="0", defender_deadwood="5")
    t.refresh_from_db()
    assert t.current_round == 1  # round 2 waits for its start time
    page = client.get(f"/desk/{t.pk}/rounds/1/").content.decode()
    assert "Pair round 2 now" in page
    response = client.post(f"/desk/{t.pk}/rounds/1/pair-next/")
    assert response.status_code == 302 and response["Location"] == f"/desk/{t.pk}/rounds/2/"
    t.refresh_from_db()
    assert t.current_round == 2


def test_repair_needs_a_reason(client, td):
    t = started(td, players=4)
    response = client.post(
        f"/desk/{t.pk}/rounds/1/repair/", {"reason": "", "version": str(t.version)}
    )
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
