"""The names the admin gives rows (breadcrumbs, "… was changed", delete confirmations)
are in the reader's language: a model's `__str__` is a catalogued text with values."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from players.models import Club, Player
from tournaments import services
from tournaments.models import Pairing, Registration, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired():
    td = get_user_model().objects.create_user(username="td", password="pw-td-12345")
    Club.objects.create(name="Gin Club", slug="gin-club").organisers.add(td)
    t = services.tournament_create(
        name="Marți", format="swiss", rounds=2, created_by=td, check_in_required=False
    )
    for name in ("Ana", "Jonas", "Lena"):
        services.tournament_register(
            tournament_id=t.pk, player=Player.objects.create(name=name), by=td
        )
    services.tournament_start(tournament_id=t.pk, by=td)
    return t


def test_rows_are_named_in_the_active_language(paired):
    registration = Registration.objects.filter(tournament=paired).first()
    round_ = Round.objects.get(tournament=paired, number=1)
    bye = Pairing.objects.get(round=round_, player2__isnull=True)
    with translation.override("en"):
        assert str(round_) == "Marți round 1"
        assert str(bye).endswith(" v bye")
        assert " in Marți" in str(registration)
    with translation.override("de"):
        assert str(round_) == "Marți, Runde 1"
        assert str(bye).startswith("Marți, Runde 1, Tisch ") and str(bye).endswith(" – Freilos")
        assert str(registration).endswith(" in Marți")
    with translation.override("fa"):
        assert str(round_) == "Marți، دور 1"
        assert str(bye).endswith(" – استراحت")
