import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from demo.bots import match_play_bots_batched
from games.models import Match
from games.projections import match_rows
from games.services import match_create
from tests.factories import BotPlayerFactory, UserFactory


@pytest.mark.django_db(transaction=True)
def test_rebuild_projections_command_restores_the_read_models():
    a, b = BotPlayerFactory(), BotPlayerFactory()
    match = match_create(player1=a, player2=b, seed="command", ruleset={"games": 1})
    match_play_bots_batched(match=match)
    before = match_rows(match)
    Match.objects.filter(pk=match.pk).update(status="in_progress", points_p1=-1, scoresheet={})
    out, err = io.StringIO(), io.StringIO()
    call_command("rebuild_projections", stdout=out, stderr=err)
    assert "Rebuilt 1 matches" in out.getvalue()
    assert "events" in err.getvalue()  # the progress bar
    assert match_rows(match) == before


@pytest.mark.django_db
def test_admin_shows_matches_with_their_scoresheet(client):
    admin_user = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    a, b = BotPlayerFactory(name="Ann"), BotPlayerFactory(name="Ben")
    match = match_create(player1=a, player2=b, seed="admin")
    match_play_bots_batched(match=match)
    listing = client.get(reverse("admin:games_match_changelist"))
    assert listing.status_code == 200 and b"Ann v Ben" in listing.content
    page = client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert page.status_code == 200
    assert b"Game 1" in page.content and b"Games won" in page.content
    assert b"hand_number" in page.content or b"Hand number" in page.content
    assert client.get(reverse("admin:games_match_add")).status_code == 403
