"""Example tests of the deadwood solver (RULES.md section 2) and stated arrangements."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.cards import to_mask
from games.engine.errors import InvalidCardError, InvalidMeldError
from games.engine.melds import (
    Arrangement,
    best_arrangement,
    best_discard,
    discard_deadwoods,
    is_meld,
    is_run,
    is_set,
    min_arrangements,
    min_deadwood,
    min_deadwood_mask,
    validate_arrangement,
)


def test_sets_of_three_and_four() -> None:
    assert is_set(["9S", "9D", "9H"])
    assert is_set(["9S", "9D", "9H", "9C"])
    assert not is_set(["9S", "9D"])
    assert not is_set(["9S", "9D", "8H"])
    assert not is_set(["9S", "9S", "9D"])
    assert not is_run(["9S", "9D", "9H"])


def test_runs_of_three_or_more_ace_low() -> None:
    assert is_run(["AH", "2H", "3H"])
    assert is_run(["3C", "2C", "4C", "5C", "6C"])  # order of input does not matter
    assert is_run(["JD", "QD", "KD"])
    assert not is_run(["QH", "KH", "AH"])  # the ace is low only
    assert not is_run(["KH", "AH", "2H"])
    assert not is_run(["7H", "8H", "9S"])
    assert not is_run(["7H", "8H"])
    assert not is_run(["7H", "8H", "TH"])
    assert is_meld(["AH", "2H", "3H"]) and is_meld(["KC", "KD", "KS"])
    assert not is_meld(["QH", "KH", "AH"])


def test_bad_card_code_is_a_card_error() -> None:
    with pytest.raises(InvalidCardError):
        is_meld(["7H", "8H", "1H"])


def test_true_minimum_prefers_the_set() -> None:
    # RULES 2: 7H8H9H + 9S9D is better as 7H8H + 9H9S9D (deadwood 15 instead of 18).
    arrangement = best_arrangement(["7H", "8H", "9H", "9S", "9D"])
    assert arrangement == Arrangement(
        melds=(("9D", "9H", "9S"),), deadwood=("7H", "8H"), deadwood_value=15
    )
    assert min_deadwood(["7H", "8H", "9H", "9S", "9D"]) == 15


def test_card_shared_between_set_and_run() -> None:
    hand = ["5H", "6H", "7H", "7S", "7D", "7C", "KC"]
    # 7H goes to the run, the other three sevens are still a set.
    arrangement = best_arrangement(hand)
    assert arrangement.melds == (("7C", "7D", "7S"), ("5H", "6H", "7H"))
    assert arrangement.deadwood == ("KC",) and arrangement.deadwood_value == 10


def test_ace_low_runs_count_and_q_k_a_does_not() -> None:
    assert min_deadwood(["AS", "2S", "3S"]) == 0
    assert min_deadwood(["QS", "KS", "AS"]) == 21


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ([], 0),
        (["KD"], 10),
        (["AC", "2D"], 3),
        (["4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"], 0),
        (["AC", "AD", "AH", "AS", "2C", "2D", "2H", "3S", "3D", "3H"], 0),
        (["AC", "AD", "AH", "2C", "2D", "2H", "3S", "3D", "3H", "4S"], 4),
        (["AC", "AD", "AH", "AS", "2C", "3C", "2D", "3D", "2H", "3H", "KS"], 10),
        (["2C", "4D", "6H", "8S", "TC", "QD", "KH", "AS", "3C", "5D"], 59),
    ],
)
def test_hands_of_every_size(hand: list[str], expected: int) -> None:
    assert min_deadwood(hand) == expected
    assert min_deadwood_mask(to_mask(hand)) == expected
    assert best_arrangement(hand).deadwood_value == expected


def test_three_runs_of_a_rank_beat_the_sets() -> None:
    hand = ["AC", "2C", "3C", "AD", "2D", "3D", "AH", "2H", "3H"]
    # Three sets or three runs: both gin, both reported.
    arrangements = min_arrangements(hand)
    assert len(arrangements) == 2
    assert all(a.deadwood_value == 0 for a in arrangements)
    assert {len(a.melds) for a in arrangements} == {3}


def test_min_arrangements_single_minimum() -> None:
    hand = ["7H", "8H", "9H", "9S", "9D", "9C", "TH"]
    assert [a.melds for a in min_arrangements(hand)] == [
        (("9C", "9D", "9S"), ("7H", "8H", "9H", "TH"))
    ]
    hand = ["4C", "4D", "4H", "4S", "5C", "6C", "KH"]
    assert [a.melds for a in min_arrangements(hand)] == [(("4C", "5C", "6C"), ("4D", "4H", "4S"))]


def test_min_arrangements_lists_every_distinct_minimum_in_order() -> None:
    # 8C can join 7C9C, 8D can join 7D9D, or either pair is left dead beside a set of
    # eights: three arrangements, each with 16 points of deadwood.
    hand = ["8C", "8D", "8H", "8S", "7C", "9C", "7D", "9D"]
    found = min_arrangements(hand)
    assert [(a.melds, a.deadwood) for a in found] == [
        ((("7C", "8C", "9C"), ("7D", "8D", "9D")), ("8H", "8S")),
        ((("7C", "8C", "9C"), ("8D", "8H", "8S")), ("7D", "9D")),
        ((("8C", "8H", "8S"), ("7D", "8D", "9D")), ("7C", "9C")),
    ]
    assert {a.deadwood_value for a in found} == {16}
    assert min_arrangements(list(reversed(hand))) == found  # input order does not matter
    assert best_arrangement(hand) == found[0]


def test_min_arrangements_two_runs_or_two_sets() -> None:
    hand = ["5C", "6C", "7C", "5D", "6D", "7D", "5H", "7H"]
    found = min_arrangements(hand)
    assert [a.melds for a in found] == [
        (("5C", "6C", "7C"), ("5D", "6D", "7D")),
        (("5C", "5D", "5H"), ("7C", "7D", "7H")),
    ]
    assert [a.deadwood_value for a in found] == [12, 12]
    for arrangement in found:
        assert validate_arrangement(hand, arrangement.melds) == arrangement


def test_best_discard_returns_card_and_deadwood() -> None:
    hand = ["7H", "8H", "9H", "9S", "9D", "KC", "AS", "2S", "3S", "QD", "QC"]
    assert best_discard(hand) == ("KC", 35)
    # Eleven melded cards: a card can still go with gin left.
    card, deadwood = best_discard(
        ["AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS", "5C", "6C", "7C"]
    )
    assert deadwood == 0 and card in {"KC", "KD", "KH", "KS", "AC", "AD", "AH", "AS"}
    assert card == "KC"  # tie-break: the highest rank, then the first suit


def test_best_discard_breaks_a_meld_when_that_is_best() -> None:
    hand = ["5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "4C", "3C"]
    assert best_discard(hand) == ("KC", 0)


def test_best_discard_on_empty_hand_is_an_error() -> None:
    with pytest.raises(InvalidMeldError):
        best_discard([])


def test_validate_arrangement_accepts_a_stated_non_minimal_arrangement() -> None:
    hand = ["7H", "8H", "9H", "9S", "9D", "KC"]
    arrangement = validate_arrangement(hand, [["9H", "8H", "7H"]])
    assert arrangement.melds == (("7H", "8H", "9H"),)
    assert arrangement.deadwood == ("KC", "9D", "9S")  # sort_cards: suit, then rank
    assert arrangement.deadwood_value == 28
    assert validate_arrangement(hand, []).deadwood_value == 52


@pytest.mark.parametrize(
    ("melds", "fragment"),
    [
        ([["7H", "8H", "TH"]], "not a set or a run"),
        ([["QH", "KH", "AH"]], "not a set or a run"),
        ([["7H", "8H", "9H"], ["9H", "9S", "9D"]], "used in two melds"),
        ([["9S", "9D", "9C"]], "not in the hand"),
    ],
)
def test_validate_arrangement_errors(melds: list[list[str]], fragment: str) -> None:
    hand = ["7H", "8H", "9H", "TH", "9S", "9D", "QH", "KH", "AH"]
    with pytest.raises(InvalidMeldError, match=fragment) as caught:
        validate_arrangement(hand, melds)
    assert caught.value.code == "invalid_meld"


def test_validate_arrangement_rejects_duplicate_hand_cards() -> None:
    with pytest.raises(InvalidCardError):
        validate_arrangement(["7H", "7H", "8H"], [])


def test_solver_modules_do_not_import_django() -> None:
    code = (
        "import sys, games.engine.melds, games.engine._meldtables, games.engine._defence;"
        "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[3]
    assert subprocess.run([sys.executable, "-c", code], cwd=root, check=False).returncode == 0


@pytest.mark.parametrize("hand", [["7H", "7H"], ["7H", "1H"], ["7H", None], ["7h"]])
def test_solver_rejects_bad_or_repeated_cards(hand: list) -> None:
    for solve in (min_deadwood, best_discard, min_arrangements, best_arrangement):
        with pytest.raises(InvalidCardError):
            solve(hand)


def test_discard_deadwoods_examples() -> None:
    hand = ["AC", "AD", "AH", "AS", "5C", "6C", "7C", "KD"]
    assert discard_deadwoods(hand) == {
        "AC": 10,  # the other aces stay a set
        "5C": 23,  # 6C 7C fall apart, beside KD
        "6C": 22,  # 5C 7C fall apart, beside KD
        "7C": 21,
        "AD": 10,
        "AH": 10,
        "AS": 10,
        "KD": 0,
    }
    assert discard_deadwoods([]) == {}
