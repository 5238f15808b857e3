"""Disputes on the desk: the open ones listed per tournament and counted on its pages, the
dispute's page (statement, comments, the match's hands, a link to the replay), and the
answers (comment, dismiss with a reason, resolve with a ruling) through the dispute
services; organisers only; the player sees the outcome on the match page."""

import pytest
from django.contrib.auth import get_user_model

from games.hand_entries import HandEntry
from games.models import Match
from games.services import match_record_hand
from games.services.disputes import match_dispute_open
from tests.web.desk.helpers import organiser, started_with_logins
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def _disputed(td, *, hands: int = 2, hand_number: int | None = 1, statement: str = "") -> tuple:
    """A tournament whose table-1 match has `hands` hands (Anna knocks 5 v 25 each time) and
    one open dispute by Boris."""
    t = started_with_logins(td)
    match = Pairing.objects.get(round__tournament=t, table=1).match
    for _ in range(hands):
        match_record_hand(
            match_id=match.pk,
            by=td,
            hand=HandEntry(knocker=match.player1.pk, knocker_deadwood=5, defender_deadwood=25),
        )
    boris = match.player2 if match.player2.name == "Boris" else match.player1
    match_dispute_open(
        match_id=match.pk,
        player=boris,
        hand_number=hand_number,
        statement=statement or "Anna's deadwood was 15, not 5: she miscounted.",
    )
    match.refresh_from_db()
    return t, match


def _url(t, match, number=1):
    return f"/desk/{t.pk}/disputes/{match.pk}/{number}/"


def test_the_open_dispute_is_listed_and_counted_on_the_desk(client, td):
    t, match = _disputed(td)
    listing = client.get(f"/desk/{t.pk}/disputes/").content.decode()
    assert "she miscounted" in listing and "hand 1" in listing and "Boris" in listing
    assert _url(t, match) in listing
    round_page = client.get(f"/desk/{t.pk}/rounds/1/").content.decode()
    assert "1 open dispute<" in round_page and "dispute #1" in round_page
    assert "Open disputes (1)" in client.get(f"/desk/{t.pk}/").content.decode()


def test_the_dispute_page_shows_the_case_the_hands_and_the_replay(client, td):
    t, match = _disputed(td)
    page = client.get(_url(t, match)).content.decode()
    page = page.replace("<bdi>", "").replace("</bdi>", "")  # names sit in <bdi>
    assert "Hand 1, disputed by Boris" in page
    assert "she miscounted" in page
    assert f"/matches/{match.pk}/replay/?version=" in page
    assert page.count("Knock") >= 2  # the match's two hands
    assert 'id="rule-form"' in page and 'id="dismiss-form"' in page


def test_a_comment_is_added_and_the_dispute_stays_open(client, td):
    t, match = _disputed(td)
    response = client.post(_url(t, match), {"action": "comment", "comment-comment": "Checking."})
    assert response.status_code == 302
    page = client.get(_url(t, match)).content.decode()
    assert "Checking." in page and 'data-state="open"' in page


def test_dismissed_with_a_reason_the_player_sees_the_outcome(client, td):
    t, match = _disputed(td)
    before = match.version
    response = client.post(
        _url(t, match), {"action": "dismiss", "dismiss-reason": "The table counted it twice."}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.version == before + 1  # one event: DisputeResolved
    assert "0 open disputes" in client.get(f"/desk/{t.pk}/rounds/1/").content.decode()
    client.force_login(get_user_model().objects.get(username="boris"))
    page = client.get(f"/matches/{match.pk}/").content.decode()
    page = page.replace("<bdi>", "").replace("</bdi>", "")  # names sit in <bdi>
    assert "Dismissed by td: The table counted it twice." in page
    assert "she miscounted" in page


def test_a_dismissal_needs_a_reason(client, td):
    t, match = _disputed(td)
    before = match.version
    response = client.post(_url(t, match), {"action": "dismiss", "dismiss-reason": ""})
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
    match.refresh_from_db()
    assert match.version == before


def test_resolved_by_voiding_the_hand(client, td):
    t, match = _disputed(td)
    response = client.post(
        _url(t, match),
        {"action": "rule", "rule-type": "void_hand", "rule-hand_number": "1",
         "rule-reason": "Miscounted: the hand is void."},
    )  # fmt: skip
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.hands.get(hand_number=1).voided
    page = client.get(_url(t, match)).content.decode()
    assert 'data-state="ruled"' in page and "Miscounted: the hand is void." in page
    assert 'id="rule-form"' not in page  # closed: nothing more to answer


def test_resolved_by_correcting_the_hand(client, td):
    t, match = _disputed(td)
    response = client.post(
        _url(t, match),
        {"action": "rule", "rule-type": "correct_hand", "rule-hand_number": "1",
         "rule-result": "p1", "rule-knocker_deadwood": "9", "rule-defender_deadwood": "25",
         "rule-reason": "Deadwood 9, as the photo shows."},
    )  # fmt: skip
    assert response.status_code == 302
    match.refresh_from_db()
    hand = match.hands.get(hand_number=1)
    assert (hand.knocker_deadwood, hand.points) == (9, 16)


def test_resolved_by_adjusting_a_score_and_by_forfeit(client, td):
    t, match = _disputed(td, hand_number=None)
    response = client.post(
        _url(t, match),
        {"action": "rule", "rule-type": "adjust_score", "rule-player": "p2", "rule-game": "1",
         "rule-points": "10", "rule-reason": "Ten points missed on game 1."},
    )  # fmt: skip
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.scoresheet["games"][0]["totals"][1] == 10
    boris = match.player2
    match_dispute_open(match_id=match.pk, player=boris, statement="She left the table.")
    response = client.post(
        _url(t, match, 2),
        {"action": "rule", "rule-type": "forfeit", "rule-player": "p2",
         "rule-reason": "Anna left: the match to Boris."},
    )  # fmt: skip
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_id == boris.pk


def test_a_ruling_missing_its_fields_or_refused_by_the_rules_writes_nothing(client, td):
    t, match = _disputed(td)
    before = match.version
    missing = client.post(
        _url(t, match), {"action": "rule", "rule-type": "adjust_score", "rule-reason": "x"}
    )
    assert missing.status_code == 400
    assert "needed for this ruling" in missing.content.decode()
    refused = client.post(
        _url(t, match),
        {"action": "rule", "rule-type": "correct_hand", "rule-hand_number": "1",
         "rule-result": "p1", "rule-knocker_deadwood": "40", "rule-defender_deadwood": "25",
         "rule-reason": "Over the knock limit."},
    )  # fmt: skip
    assert refused.status_code == 400
    assert 'class="errorlist nonfield"' in refused.content.decode()
    match.refresh_from_db()
    assert match.version == before


def test_an_answer_to_a_closed_dispute_is_refused_not_a_500(client, td):
    t, match = _disputed(td)
    client.post(_url(t, match), {"action": "dismiss", "dismiss-reason": "No."})
    again = client.post(_url(t, match), {"action": "comment", "comment-comment": "Late."})
    assert again.status_code == 400
    assert "already dismissed" in again.content.decode()
    assert client.post(_url(t, match), {"action": "nonsense"}).status_code == 400


def test_only_the_tournaments_organisers_see_its_disputes(client, td):
    t, match = _disputed(td)
    urls = [f"/desk/{t.pk}/disputes/", _url(t, match)]
    client.logout()
    for url in urls:
        assert client.get(url).status_code == 302  # to the sign-in page
    client.force_login(get_user_model().objects.get(username="boris"))  # a player
    for url in urls:
        assert client.get(url).status_code == 403
    client.force_login(organiser("other-td"))  # an organiser of another tournament
    for url in urls:
        assert client.get(url).status_code == 403
    before = match.version
    assert client.post(urls[1], {"action": "dismiss", "dismiss-reason": "x"}).status_code == 403
    match.refresh_from_db()
    assert match.version == before


def test_a_match_or_dispute_not_of_this_tournament_is_404(client, td):
    t, match = _disputed(td)
    other = started_with_logins(td, names=("Cleo", "Dan"), name="Other Night")
    assert client.get(_url(other, match)).status_code == 404
    assert client.get(_url(t, match, 9)).status_code == 404


def test_a_spectator_sees_no_statement_on_the_public_match_page(client, td):
    t, match = _disputed(td, statement="Secret: my hand had the 7 of clubs.")
    client.logout()
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200  # a public tournament's match
    page = response.content.decode()
    assert "Secret" not in page and "Disputes" not in page
    assert "Knock" in page
    client.force_login(get_user_model().objects.get(username="anna"))
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Secret: my hand had the 7 of clubs." in page and "waiting for an organiser" in page


def test_the_tables_results_screen_links_its_open_dispute(client, td):
    t, match = _disputed(td)
    page = client.get(f"/desk/{t.pk}/rounds/1/tables/1/").content.decode()
    assert "Dispute #1 open" in page and _url(t, match) in page


def test_an_organiser_added_after_pairing_is_refused_not_a_500(client, td):
    t, match = _disputed(td)
    late = organiser("late-td")
    t.organisers.add(late)  # organises the tournament, not its round-1 matches
    client.force_login(late)
    assert client.get(f"/desk/{t.pk}/rounds/1/").status_code == 200
    assert "Dispute #1" not in client.get(f"/desk/{t.pk}/rounds/1/tables/1/").content.decode()
    assert client.get(_url(t, match)).status_code == 403
