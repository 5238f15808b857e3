"""`make run`'s load_demo leaves a practice match against the bot ready and prints its
link; the link answers the play page to its player."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Match


@pytest.mark.django_db(transaction=True)  # the demo's jobs run after commit
def test_load_demo_leaves_a_practice_match_and_prints_its_link(monkeypatch, client):
    from demo.management.commands import load_demo

    monkeypatch.setattr(load_demo, "DEMO_PLAYERS", 2)
    monkeypatch.setattr(load_demo, "DEMO_ROUNDS", 1)
    monkeypatch.setattr(load_demo, "DEMO_GAME_TARGET", 25)
    out = StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=out)  # a second run makes no second one
    practice = Match.objects.get(practice=True)
    assert practice.player1.user.username == "bob" and practice.player2.is_bot
    assert practice.status == "in_progress"
    links = re.findall(r"http://127\.0\.0\.1:8000(/play/[0-9a-f-]+/)", out.getvalue())
    assert links and set(links) == {f"/play/{practice.pk}/"}
    client.login(username="bob", password=load_demo.DEMO_HUMAN_PASSWORD)
    page = client.get(links[0]).content.decode()
    assert 'data-practice="true"' in page and f'data-match="{practice.pk}"' in page
