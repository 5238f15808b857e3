"""Issue 32, item 15: the records inside a match view are typed in the schema: a legal
action is a union discriminated by `type` (a discard's `card` and a draw's `source` are
required), a hand's `kind` an enum, its `knock` and `defence` and the `rulings` objects
with their fields."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_match_view_records_are_typed(api_client):
    schemas = api_client.get("/api/schema/?format=json").json()["components"]["schemas"]
    legal = schemas["LegalAction"]
    assert legal["discriminator"]["propertyName"] == "type"
    assert set(legal["discriminator"]["mapping"]) == {"pass", "draw", "discard", "knock"}
    assert "card" in schemas["DiscardAction"]["required"]
    assert "card" in schemas["KnockAction"]["required"]
    assert "source" in schemas["DrawAction"]["required"]
    assert schemas["MatchView"]["properties"]["legal_actions"]["items"] == {
        "$ref": "#/components/schemas/LegalAction"
    }
    hand = schemas["HandResult"]["properties"]
    assert "unfinished" in schemas["HandKindEnum"]["enum"]
    assert {"melds", "deadwood_value", "gin"} <= set(schemas["KnockRecord"]["properties"])
    assert "layoffs" in schemas["DefenceRecord"]["properties"]
    assert hand["knock"]["allOf"][0]["$ref"].endswith("/KnockRecord")
    rulings = schemas["MatchView"]["properties"]["rulings"]["items"]
    assert rulings == {"$ref": "#/components/schemas/RulingRecord"}
    assert "MatchForfeited" in schemas["RulingTypeEnum"]["enum"]
