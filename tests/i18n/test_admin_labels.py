"""Issue 37, item 5: the admin in Persian showed English field names (Members, Time zone,
Rating settings, Organisers, Starts at): the club's and the tournament's fields are named
in the catalogues, and the admin's change form shows them in the reader's language."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.functional import Promise

from players.models import Club
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", [Club, Tournament])
def test_every_field_of_the_club_and_the_tournament_is_named_for_translation(model):
    unnamed = [
        f.name
        for f in model._meta.get_fields()
        if (f.concrete or f.many_to_many) and not f.auto_created
        and not isinstance(f._verbose_name, Promise)  # a plain English string
    ]  # fmt: skip
    assert unnamed == []


def test_the_admin_shows_the_clubs_fields_in_persian(client):
    staff = get_user_model().objects.create_superuser("boss", password="pw-admin-123")
    club = Club.objects.create(name="Tehran", slug="tehran", time_zone="Asia/Tehran")
    client.force_login(staff)
    page = client.get(
        f"/admin/players/club/{club.pk}/change/", HTTP_ACCEPT_LANGUAGE="fa"
    ).content.decode()
    with translation.override("fa"):
        for english in ("members", "time zone", "rating settings"):
            assert translation.gettext(english) != english
            assert (
                translation.gettext(english).capitalize() in page
                or translation.gettext(english) in page
            ), english
