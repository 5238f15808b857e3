"""Entry fees at the desk (issue 40): paid, unpaid or waived per entry, a cash sheet in the
club's language and number format, and the same as .xlsx."""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any

import openpyxl
import pytest
from django.test import Client

from core.errors import ValidationError
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments.services.fees import tournament_entry_payment_set
from tournaments.services.waitlist import tournament_entry_rules_set

pytestmark = pytest.mark.django_db


def _fee(t: Any, organiser: Any, amount: str) -> None:
    tournament_entry_rules_set(
        tournament_id=t.pk, by=organiser,
        changes={"fee_amount": Decimal(amount), "fee_currency": "EUR"},
    )  # fmt: skip


def test_the_cash_sheet_totals_what_was_paid_in_the_clubs_format(organiser: Any) -> None:
    players = make_bots(3)
    t = make_tournament(organiser, players, language="de")
    _fee(t, organiser, "1250.50")
    client = Client()
    client.force_login(organiser)
    assert client.post(f"/desk/{t.pk}/cash/{players[0].pk}/", {"status": "paid"}).status_code == 302
    client.post(f"/desk/{t.pk}/cash/{players[1].pk}/", {"status": "waived"})
    page = client.get(f"/desk/{t.pk}/cash/").content.decode()
    assert "1.250,50\xa0€" in page  # German: the comma for decimals, the sign after
    assert 'data-payment="paid"' in page and 'data-payment="unpaid"' in page

    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/desk/{t.pk}/cash.xlsx").content))
    rows = list(book.active.values)
    assert rows[-1][2] == 1250.5  # the collected total, a number
    assert len(rows) == 1 + 3 + 1

    bad = client.post(f"/desk/{t.pk}/cash/{players[2].pk}/", {"status": "maybe"})
    assert bad.status_code == 400
    with pytest.raises(ValidationError):
        tournament_entry_rules_set(
            tournament_id=t.pk, by=organiser, changes={"fee_currency": "euro"}
        )
    with pytest.raises(ValidationError):
        tournament_entry_payment_set(
            tournament_id=t.pk, player_id=players[2].pk, status="maybe", by=organiser
        )


def test_the_api_records_payments_and_gives_the_cash_sheet(organiser: Any, make_player) -> None:
    from rest_framework.test import APIClient

    players = make_bots(3)
    t = make_tournament(organiser, players)
    _fee(t, organiser, "7.50")
    client = APIClient()
    client.force_authenticate(organiser)
    url = f"/api/tournaments/{t.pk}/payments/"
    answer = client.post(url, {"player": players[0].pk, "status": "paid"}, format="json")
    assert answer.status_code == 200, answer.content
    client.post(url, {"player": players[1].pk, "status": "waived"}, format="json")
    sheet = client.get(url).json()
    assert (sheet["fee"], sheet["currency"], sheet["collected"]) == ("7.50", "EUR", "7.50")
    assert (sheet["paid"], sheet["waived"], sheet["unpaid"]) == (1, 1, 1)
    by_player = {line["player"]: line for line in sheet["lines"]}
    assert by_player[players[0].pk]["payment"] == "paid"
    assert by_player[players[0].pk]["amount"] == "7.50"
    assert by_player[players[2].pk]["payment"] == "unpaid"

    # Bad input: a clear 400 with a code, nothing written; a stranger to the club: 409.
    bad = client.post(url, {"player": players[2].pk, "status": "maybe"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "validation_error"
    stranger = make_player("Stranger")
    answer = client.post(url, {"player": stranger.pk, "status": "paid"}, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["reason"] == "not_registered"
    assert client.get(url).json()["lines"] == sheet["lines"]

    # A player of the tournament may not read the sheet.
    player = APIClient()
    player.force_authenticate(stranger.user)
    assert player.get(url).status_code in (403, 404)
