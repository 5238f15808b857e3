"""The desk tells the organiser when a result was corrected after the next round was
paired: re-pair while none of its matches has started, else the pairings stand."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.hand_entries import HandEntry
from games.services import match_record_hand, match_rule
from tests.tournaments.helpers import record_gins, table_tournament
from tests.web.desk.helpers import organiser
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def test_a_late_correction_is_shown_on_the_next_round(client, django_capture_on_commit_callbacks):
    from players.models import Player

    td = organiser()
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cy", "Di")]
    tournament = table_tournament(td, players)
    first = list(Pairing.objects.filter(round__tournament=tournament, round__number=1))
    for pairing in first:
        with django_capture_on_commit_callbacks(execute=True):  # the results, round 2
            record_gins(pairing.match_id, td, pairing.player1)
    client.force_login(td)
    url = reverse("desk-round", args=[tournament.pk, 2])
    first_look = client.get(url)
    assert first_look.status_code == 200
    assert "after this round was paired" not in first_look.content.decode()
    # Hand 1 of table 1 was the other player's gin: 1-1, the match goes back to play.
    with django_capture_on_commit_callbacks(execute=True):
        match_rule(
            match_id=first[0].match_id,
            by=td,
            type="correct_hand",
            reason="wrong way round",
            hand_number=1,
            hand=HandEntry(
                knocker=first[0].player2.pk, gin=True, knocker_deadwood=0, defender_deadwood=30
            ),
        )
    page = client.get(url).content.decode()
    assert "Round 1, table 1: a result was corrected after this round was paired" in page
    assert "The correction put the match back in play" in page
    assert "you may re-pair it below" in page
    # Once a match of round 2 has started, the pairings stand.
    second = Pairing.objects.filter(round__tournament=tournament, round__number=2).first()
    match_record_hand(
        match_id=second.match_id,
        by=td,
        hand=HandEntry(
            knocker=second.player1.pk, gin=False, knocker_deadwood=4, defender_deadwood=20
        ),
    )
    assert "its pairings stand" in client.get(url).content.decode()


def _round_two_corrected(client, django_capture_on_commit_callbacks, **correction):
    from players.models import Player

    td = organiser()
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cy", "Di")]
    tournament = table_tournament(td, players)
    first = list(Pairing.objects.filter(round__tournament=tournament, round__number=1))
    for pairing in first:
        with django_capture_on_commit_callbacks(execute=True):
            record_gins(pairing.match_id, td, pairing.player1)
    with django_capture_on_commit_callbacks(execute=True):
        match_rule(
            match_id=first[0].match_id,
            by=td,
            type="correct_hand",
            reason="counted again",
            hand_number=1,
            hand=HandEntry(
                **{"knocker": first[0].player1_id, "gin": True, "knocker_deadwood": 0} | correction
            ),
        )
    client.force_login(td)
    return client.get(reverse("desk-round", args=[tournament.pk, 2])).content.decode()


def test_a_correction_of_the_points_only_says_so(client, django_capture_on_commit_callbacks):
    """The winner and the games stand: only the points, and so the points-difference
    tiebreak, moved; the notice is a warning box, not a line of text."""
    page = _round_two_corrected(client, django_capture_on_commit_callbacks, defender_deadwood=40)
    assert "Round 1, table 1: a result was corrected after this round was paired" in page
    assert (
        'Only the points changed, from <span class="score" dir="ltr">110–0</span> to'
        ' <span class="score" dir="ltr">120–0</span>'
    ) in page
    assert "the winner and the games stand" in page and "The winner changed" not in page
    assert '<div class="warning" role="status">' in page
