"""Issue 32 item 6: a withdrawal reason of 2,000,000 characters was taken (200) and sat in
the public log for ever. Every free-text field of a command (a reason, a statement, a
comment, a note) has one limit, FREE_TEXT_MAX, the same in the API and at the desk;
past it 400 `validation_error` naming the field, nothing written."""

from __future__ import annotations

import inspect

import pytest
from django import forms
from django.test import Client
from rest_framework import serializers

import games.serializers
import games.serializers.audit
import tournaments.admin
import tournaments.ratings.serializers
import tournaments.serializers
import web.desk.entry_forms
import web.desk.forms
import web.desk.pairs
from core.text import FREE_TEXT_MAX
from eventstore.models import StoredEvent
from tests.web.desk.helpers import organiser, table_swiss
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

FREE_TEXT = {"reason", "statement", "comment", "note"}


@pytest.fixture
def evening():
    td = organiser()
    tournament = table_swiss(td, players=2)
    return td, tournament, tournament.registrations.first().player


def test_a_two_million_character_withdrawal_reason_is_refused(evening):
    from tests.helpers import token_client

    td, tournament, player = evening
    client = token_client(td)
    url = f"/api/tournaments/{tournament.pk}/registrations/withdraw/"
    events = StoredEvent.objects.count()
    body = {"player": player.pk, "reason": "x" * 2_000_000}
    response = client.post(url, body, format="json")
    assert response.status_code in (400, 413)
    response = client.post(
        url, {"player": player.pk, "reason": "x" * (FREE_TEXT_MAX + 1)}, format="json"
    )
    assert response.status_code == 400
    assert "reason" in response.json()["error"]["fields"]
    assert StoredEvent.objects.count() == events
    ok = client.post(url, {"player": player.pk, "reason": "x" * FREE_TEXT_MAX}, format="json")
    assert ok.status_code == 200, ok.content


def test_the_desk_takes_the_same_limit(evening):
    td, tournament, player = evening
    desk = Client()
    desk.force_login(td)
    url = f"/desk/{tournament.pk}/players/{player.pk}/withdraw/"
    refused = desk.post(url, {"reason": "x" * (FREE_TEXT_MAX + 1)})
    assert refused.status_code == 400
    assert Registration.objects.get(player=player).status != "withdrawn"
    desk.post(url, {"reason": "x" * FREE_TEXT_MAX})
    assert Registration.objects.get(player=player).status == "withdrawn"


def _input_fields():
    """(owner, field name, max_length) of every free-text field of an input serializer or
    a desk form."""
    found = []
    for module in (games.serializers, games.serializers.audit, tournaments.serializers,
                   tournaments.ratings.serializers):  # fmt: skip
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, serializers.Serializer):
                for field_name, field in cls().fields.items():
                    taken = "Input" in name or field.write_only
                    if field_name in FREE_TEXT and taken and not field.read_only:
                        found.append((name, field_name, field.max_length))
    for module in (web.desk.forms, web.desk.entry_forms, web.desk.pairs, tournaments.admin):
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, forms.BaseForm) and cls.__module__ == module.__name__:
                for field_name, field in cls.base_fields.items():
                    if field_name in FREE_TEXT:
                        found.append((name, field_name, field.max_length))
    return found


def test_every_free_text_field_has_the_one_limit():
    found = _input_fields()
    assert len(found) > 10
    assert [f for f in found if f[2] != FREE_TEXT_MAX] == []
