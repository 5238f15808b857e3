"""Issue 32 item 3: the opponent's Confirm names the entry it was shown (id and version);
an entry taken back and entered again is not confirmed by a page that showed the old one:
409, the new entry on the page, nothing recorded."""

from __future__ import annotations

import re

import pytest

from games.models import Match, TableEntry
from tests.web.desk.helpers import two_phones_at_a_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    _, pairing, phones, _ = two_phones_at_a_table()
    seat = "p1" if pairing.player1.name == "Ann" else "p2"
    return f"/tables/{pairing.match_id}/", pairing, phones, seat


def confirm_fields(page: str) -> dict[str, str]:
    """The hidden fields of the page's Confirm form."""
    form = re.search(r'<form[^>]*>(?:(?!</form>).)*value="confirm"', page, re.S).group(0)
    return dict(
        re.findall(r'<input type="hidden" name="(entry|entry_version)" value="([^"]*)"', form)
    )


def test_a_confirm_from_a_page_showing_a_withdrawn_entry_is_refused(table):
    url, pairing, phones, seat = table
    enter = {"action": "enter", "result": seat, "knocker_deadwood": "5", "defender_deadwood": "10"}
    assert phones["Ann"].post(url, enter).status_code == 302
    shown = phones["Ben"].get(url).content.decode()  # Ben's phone shows 5 / 10
    fields = confirm_fields(shown)
    assert phones["Ann"].post(url, {"action": "withdraw"}).status_code == 302
    gin = {"action": "enter", "result": seat, "gin": "on", "knocker_deadwood": "0",
           "defender_deadwood": "90"}  # fmt: skip
    assert phones["Ann"].post(url, gin).status_code == 302
    response = phones["Ben"].post(url, {"action": "confirm", **fields})
    assert response.status_code == 409
    page = response.content.decode().replace("<bdi>", "").replace("</bdi>", "")
    assert "deadwood 0 / 90" in page  # the new entry, to confirm or contest
    assert not Match.objects.get(pk=pairing.match_id).hands.exists()
    assert TableEntry.objects.filter(status="pending").count() == 1
    # Confirmed from the page showing it, the new entry is recorded.
    assert fields.keys() == {"entry", "entry_version"}
    again = phones["Ben"].post(url, {"action": "confirm", **confirm_fields(page)})
    assert again.status_code == 302
    assert Match.objects.get(pk=pairing.match_id).hands.get().points > 0


def test_a_confirm_naming_no_entry_is_refused(table):
    url, pairing, phones, seat = table
    enter = {"action": "enter", "result": seat, "knocker_deadwood": "5", "defender_deadwood": "10"}
    phones["Ann"].post(url, enter)
    assert phones["Ben"].post(url, {"action": "confirm"}).status_code == 409
    assert not Match.objects.get(pk=pairing.match_id).hands.exists()
