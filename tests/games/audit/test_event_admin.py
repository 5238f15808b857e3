"""The admin's event list: one line per event with its data, the actor by name, a link to
the replay at that version; oldest first within a stream."""

import re

import pytest

from tests.games.audit.helpers import finished_match

pytestmark = pytest.mark.django_db


def test_the_event_list_of_a_match(client, alice, bob, admin_user):
    match = finished_match(alice, bob, seed="admin")
    client.force_login(admin_user)
    response = client.get(f"/admin/eventstore/storedevent/?stream={match.stream_id}")
    assert response.status_code == 200
    page = response.content.decode()
    versions = [int(v) for v in re.findall(r'<td class="field-version">(\d+)</td>', page)]
    assert versions == sorted(versions) and versions[0] == 1
    assert f"/matches/{match.pk}/replay/?version=1" in page
    actors = set(re.findall(r'<td class="field-actor_name">(.*?)</td>', page))
    assert actors <= {"Alice", "Bob", "system"} and {"Alice", "Bob"} <= actors
    assert "&quot;hand_number&quot;:1" in page  # the data, as one line
    assert "Alice v Bob" in page  # the stream with the match's label
    assert "eventstore/admin.css" in page


def test_the_event_page_still_shows_everything(client, alice, bob, admin_user):
    from eventstore.models import StoredEvent

    match = finished_match(alice, bob, seed="admin-one")
    event = StoredEvent.objects.filter(stream_id=match.stream_id).first()
    client.force_login(admin_user)
    page = client.get(f"/admin/eventstore/storedevent/{event.pk}/change/").content.decode()
    assert event.hash in page
