"""Corrections of a match (issue: corrections re-derive everything): a wrong table entry or
a hand voided afterwards gives the match that the corrected sequence of hands would have
given from the start, in the read models too, before and after the match finished."""

from __future__ import annotations

import pytest

from core.errors import PermissionDeniedError, ValidationError
from games import projections
from games.errors import IllegalActionError
from games.hand_entries import HandEntry
from games.models import Match
from games.services import match_create, match_record_hand, match_rule
from games.signals import match_finished, match_reopened

pytestmark = pytest.mark.django_db

# (knocker: 0 = player1, 1 = player2, knocker deadwood, defender deadwood); gin at 0.
WRONG = [(1, 5, 40), (0, 2, 60), (0, 3, 70), (1, 4, 30), (0, 1, 45)]
RIGHT = [(0, 5, 40), *WRONG[1:]]


def _table(alice, bob, organiser) -> Match:
    return match_create(player1=alice, player2=bob, mode="table", organisers=[organiser])


def _record(match: Match, organiser, players, hands) -> None:
    for seat, kd, dd in hands:
        if Match.objects.get(pk=match.pk).status == "finished":
            return
        match_record_hand(
            match_id=match.id,
            by=organiser,
            hand=HandEntry(
                knocker=players[seat].pk, gin=kd == 0, knocker_deadwood=kd, defender_deadwood=dd
            ),
        )


def _sheet(match: Match) -> dict:
    rows = projections.match_rows(match)
    return {
        "scoresheet": rows["scoresheet"],
        "status": rows["status"],
        "winner": rows["winner"],
        "points": (rows["points_p1"], rows["points_p2"]),
        "hands": [
            (h["hand_number"], h["kind"], h["winner_id"], h["points"], h["games"], h["after_end"])
            for h in rows["hands"]
        ],
    }


def test_a_corrected_entry_gives_the_match_recorded_right_from_the_start(alice, bob, organiser):
    players = (alice, bob)
    wrong = _table(alice, bob, organiser)
    _record(wrong, organiser, players, WRONG)
    right = _table(alice, bob, organiser)
    _record(right, organiser, players, RIGHT)
    saved = match_rule(
        match_id=wrong.id,
        by=organiser,
        type="correct_hand",
        reason="hand 1 was Alice's knock, not Bob's",
        hand_number=1,
        hand=HandEntry(knocker=alice.pk, knocker_deadwood=5, defender_deadwood=40),
    )
    assert [e.type for e in saved.events][0] == "HandCorrected"
    assert _sheet(wrong) == _sheet(right)
    hand = Match.objects.get(pk=wrong.pk).hands.get(hand_number=1)
    [correction] = hand.corrections
    assert correction["before"]["knocker"] == 1 and correction["after"]["knocker"] == 0
    assert correction["reason"] == "hand 1 was Alice's knock, not Bob's"
    assert (
        correction["by"] == organiser.username and correction["version"] == saved.events[0].version
    )
    # The read models rebuilt from the events alone are the incremental ones.
    before = projections.match_rows(wrong)
    projections.match_rebuild(match=Match.objects.get(pk=wrong.pk))
    assert projections.match_rows(wrong) == before


def test_a_correction_after_the_end_can_reopen_the_match(
    alice, bob, organiser, django_capture_on_commit_callbacks
):
    players = (alice, bob)
    match = _table(alice, bob, organiser)
    # Alice wins three big hands: games 1 to 3 close; the match is over.
    _record(match, organiser, players, [(0, 0, 90)] * 6)
    assert Match.objects.get(pk=match.pk).status == "finished"
    reopened: list = []

    def on_reopened(sender, match_id, **kwargs):
        reopened.append(match_id)

    match_reopened.connect(on_reopened)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            saved = match_rule(
                match_id=match.id,
                by=organiser,
                type="void_hand",
                reason="hand 1 was dealt wrong",
                hand_number=1,
            )
    finally:
        match_reopened.disconnect(on_reopened)
    assert saved.reopened and reopened == [match.id]
    row = Match.objects.get(pk=match.pk)
    assert row.status == "in_progress" and row.finished_at is None and row.winner_id is None
    assert row.hands.get(hand_number=1).voided
    # Play goes on from the corrected sheet: one more hand for Alice ends it again.
    finished: list = []

    def on_finished(sender, match_id, **kwargs):
        finished.append(match_id)

    match_finished.connect(on_finished)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            _record(match, organiser, players, [(0, 0, 90)])
    finally:
        match_finished.disconnect(on_finished)
    assert Match.objects.get(pk=match.pk).status == "finished" and finished == [match.id]


def test_corrections_are_refused_with_a_clear_error(alice, bob, organiser):
    match = _table(alice, bob, organiser)
    _record(match, organiser, (alice, bob), WRONG[:2])
    with pytest.raises(PermissionDeniedError):
        match_rule(match_id=match.id, by=alice.user, type="void_hand", reason="x", hand_number=1)
    with pytest.raises(ValidationError) as caught:
        match_rule(
            match_id=match.id,
            by=organiser,
            type="correct_hand",
            reason="x",
            hand=HandEntry(drawn=True),
        )
    assert caught.value.code == "hand_number"
    with pytest.raises(IllegalActionError):  # there is no hand 9
        match_rule(
            match_id=match.id,
            by=organiser,
            type="correct_hand",
            reason="x",
            hand_number=9,
            hand=HandEntry(drawn=True),
        )
    with pytest.raises(ValidationError) as caught:
        match_rule(match_id=match.id, by=organiser, type="correct_hand", reason=" ", hand_number=1)
    assert caught.value.code == "reason_required"


def test_the_match_page_shows_a_correction_as_a_crossed_out_line(alice, bob, organiser, client):
    match = _table(alice, bob, organiser)
    _record(match, organiser, (alice, bob), WRONG[:2])
    match_rule(
        match_id=match.id,
        by=organiser,
        type="correct_hand",
        reason="it was Alice's knock",
        hand_number=1,
        hand=HandEntry(knocker=alice.pk, knocker_deadwood=5, defender_deadwood=40),
    )
    client.force_login(organiser)
    page = client.get(f"/matches/{match.id}/").content.decode()
    assert "<s>Knock by Bob, deadwood 5 / 40, 35 points</s>" in page
    assert "Knock by Alice, deadwood 5 / 40, 35 points" in page
    assert "it was Alice&#x27;s knock" in page


def test_the_match_view_lists_corrections_with_player_ids(alice, bob, organiser):
    from games.selectors import match_get, match_view_for

    match = _table(alice, bob, organiser)
    _record(match, organiser, (alice, bob), WRONG[:2])
    match_rule(
        match_id=match.id,
        by=organiser,
        type="correct_hand",
        reason="it was Alice's knock",
        hand_number=1,
        hand=HandEntry(knocker=alice.pk, knocker_deadwood=5, defender_deadwood=40),
    )
    view = match_view_for(match=match_get(match_id=match.id), user=organiser)
    [correction] = view["hands"][0]["corrections"]
    assert correction["before"]["knocker"] == bob.pk and correction["after"]["knocker"] == alice.pk
    assert correction["after"]["winner"] == alice.pk and correction["by"] == organiser.username
    assert view["hands"][0]["knocker"] == alice.pk
