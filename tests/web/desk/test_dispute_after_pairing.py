"""Issue 24: the dispute page says when its ruling changed a result after the next round
was paired (the round's page said it alone), and the desk names a contested table entry
apart from a dispute case."""

from __future__ import annotations

import pytest

from games.services.disputes import match_dispute_open
from players.models import Player
from tests.tournaments.helpers import record_gins, table_tournament
from tests.web.desk.helpers import organiser
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def test_a_ruling_after_the_next_round_was_paired_is_said_on_the_dispute_page(
    client, django_capture_on_commit_callbacks
):
    td = organiser()
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cy", "Di")]
    tournament = table_tournament(td, players)
    first = list(Pairing.objects.filter(round__tournament=tournament, round__number=1))
    for pairing in first:
        with django_capture_on_commit_callbacks(execute=True):  # the results, round 2
            record_gins(pairing.match_id, td, pairing.player1)
    pairing = first[0]
    match_dispute_open(
        match_id=pairing.match_id,
        player=pairing.player2,
        hand_number=1,
        statement="That gin was mine.",
    )
    client.force_login(td)
    url = f"/desk/{tournament.pk}/disputes/{pairing.match_id}/1/"
    assert "was paired" not in client.get(url).content.decode()  # open: nothing ruled yet
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url,
            {"action": "rule", "rule-type": "correct_hand", "rule-hand_number": "1",
             "rule-result": "p2", "rule-gin": "on", "rule-knocker_deadwood": "0",
             "rule-defender_deadwood": "30", "rule-reason": "Ben's gin, as both agree."},
        )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    page = client.get(url).content.decode()
    assert 'data-changed-after="2"' in page
    assert "This ruling put the match back in play after round 2 was paired." in page
    assert "it may be re-paired on its page" in page
    assert f'href="/desk/{tournament.pk}/rounds/2/"' in page
    # Another table's dispute, dismissed, says nothing of the kind.
    other = first[1]
    match_dispute_open(match_id=other.match_id, player=other.player2, statement="Slow play.")
    client.post(
        f"/desk/{tournament.pk}/disputes/{other.match_id}/1/",
        {"action": "dismiss", "dismiss-reason": "Not a rule."},
    )
    dismissed = client.get(f"/desk/{tournament.pk}/disputes/{other.match_id}/1/")
    assert "data-changed-after" not in dismissed.content.decode()
