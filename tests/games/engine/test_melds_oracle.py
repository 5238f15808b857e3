"""The oracle is checked on its own, so the property tests compare against something sound."""

from __future__ import annotations

from tests.games.engine.helpers import defence_deadwood, meld_ok, min_after_discard, min_deadwood


def test_oracle_meld_check() -> None:
    assert meld_ok(["AH", "2H", "3H"])
    assert not meld_ok(["QH", "KH", "AH"])
    assert meld_ok(["9S", "9D", "9H", "9C"])
    assert not meld_ok(["9S", "9D"])
    assert not meld_ok(["7H", "8H", "TH"])


def test_oracle_deadwood_and_layoffs() -> None:
    assert min_deadwood(["7H", "8H", "9H", "9S", "9D"]) == 15
    assert min_after_discard(["7H", "8H", "9H", "KS"]) == 0
    assert defence_deadwood([["6H", "7H", "8H"]], ["9H", "TH", "KS"]) == 10
