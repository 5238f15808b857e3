"""best_defence: the defender's own melds plus layoffs onto the knocker's melds (RULES 6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import FULL_DECK, card_value
from games.engine.errors import InvalidCardError, InvalidMeldError
from games.engine.melds import Defence, best_defence, is_meld, min_deadwood
from tests.games.engine import helpers as oracle
from tests.games.engine.helpers import meld_rich_hands


def test_fourth_card_on_a_set_of_three() -> None:
    defence = best_defence([["9C", "9D", "9S"]], ["9H", "KC"])
    assert defence == Defence(melds=(), layoffs=(("9H", 0),), deadwood=("KC",), deadwood_value=10)


def test_no_layoff_on_a_set_of_four() -> None:
    defence = best_defence([["9C", "9D", "9S", "9H"], ["2C", "3C", "4C"]], ["8H", "KC"])
    assert defence.layoffs == () and defence.deadwood_value == 18


def test_run_extended_at_both_ends() -> None:
    defence = best_defence([["6H", "7H", "8H"]], ["5H", "9H", "KC"])
    assert defence.layoffs == (("5H", 0), ("9H", 0))
    assert defence.deadwood == ("KC",)


def test_chained_layoffs_in_play_order() -> None:
    defence = best_defence([["AC", "2C", "3C"], ["6H", "7H", "8H"]], ["TH", "9H", "2D"])
    assert defence.layoffs == (("9H", 1), ("TH", 1))  # 9H must go before TH
    assert defence.deadwood == ("2D",)
    defence = best_defence([["6H", "7H", "8H"]], ["4H", "5H"])
    assert defence.layoffs == (("5H", 0), ("4H", 0))
    assert defence.deadwood_value == 0


def test_a_gap_stops_the_chain() -> None:
    defence = best_defence([["6H", "7H", "8H"]], ["TH", "JH"])
    assert defence.layoffs == () and defence.deadwood_value == 20
    defence = best_defence([["QH", "KH", "JH"]], ["AH", "2H"])  # no wrap past the king
    assert defence.layoffs == () and defence.deadwood_value == 3


def test_a_card_between_two_knocker_runs() -> None:
    defence = best_defence([["AH", "2H", "3H"], ["6H", "7H", "8H"]], ["4H", "5H", "KD"])
    assert defence.layoffs == (("4H", 0), ("5H", 0))  # both onto A-2-3, 4H first
    assert defence.deadwood == ("KD",)


def test_defender_prefers_own_set_when_layoff_costs_more() -> None:
    # 9H could extend the knocker's run (and TH after it), but 9H9S9D as a set leaves 10.
    defence = best_defence([["6H", "7H", "8H"]], ["9H", "9S", "9D", "TH"])
    assert defence.melds == (("9D", "9H", "9S"),)
    assert defence.layoffs == ()
    assert defence.deadwood == ("TH",) and defence.deadwood_value == 10


def test_defender_prefers_layoff_when_it_costs_less() -> None:
    defence = best_defence([["6H", "7H", "8H"]], ["9H", "9S", "9D", "9C", "TH"])
    assert defence.melds == (("9C", "9D", "9S"),)
    assert defence.layoffs == (("9H", 0), ("TH", 0))
    assert defence.deadwood_value == 0


def test_set_layoff_card_may_still_serve_a_defender_run() -> None:
    defence = best_defence([["5C", "5D", "5S"]], ["5H", "6H", "7H", "KS"])
    assert defence.deadwood == ("KS",)
    defence = best_defence([["5C", "5D", "5S"]], ["5H", "6H", "KS"])
    assert defence.layoffs == (("5H", 0),)
    assert defence.deadwood == ("6H", "KS")


def test_bad_knocker_meld_or_shared_card_is_an_error() -> None:
    with pytest.raises(InvalidMeldError):
        best_defence([["6H", "7H", "9H"]], ["KS"])
    with pytest.raises(InvalidCardError):
        best_defence([["6H", "7H", "8H"]], ["8H", "KS"])


def test_gin_knocker_empty_melds_leave_plain_deadwood() -> None:
    defence = best_defence([], ["7H", "8H", "9H", "KS"])
    assert defence.melds == (("7H", "8H", "9H"),) and defence.deadwood_value == 10


@st.composite
def knock_situations(draw) -> tuple[list[list[str]], list[str]]:
    """Knocker melds (disjoint, from a meld-rich hand) and a defender hand, often holding
    cards next to the knocker's melds."""
    knocker_hand = draw(meld_rich_hands(max_size=10, min_size=6))
    melds = [list(m) for m in oracle.all_melds(knocker_hand)]
    chosen: list[list[str]] = []
    for meld in draw(st.permutations(melds)) if melds else []:
        if not any(set(meld) & set(other) for other in chosen):
            chosen.append(sorted(meld))
    used = {c for m in chosen for c in m}
    near = sorted({c for meld in chosen for c in _layoff_spots(meld)} - used)
    rest = [c for c in FULL_DECK if c not in used]
    picks = (
        draw(st.lists(st.sampled_from(near), unique=True, min_size=1, max_size=6)) if near else []
    )
    more = draw(st.lists(st.sampled_from(rest), unique=True, max_size=10))
    defender = list(dict.fromkeys(picks + more))[:10]
    return chosen, defender


def _layoff_spots(meld: list[str]) -> list[str]:
    """Cards that could be laid off on the meld, directly or one step down a chain."""
    ranks = sorted(oracle.RANKS.index(c[0]) for c in meld)
    if len({c[1] for c in meld}) > 1:  # a set: the missing suit
        return [meld[0][0] + suit for suit in oracle.SUITS]
    spots = [ranks[0] - 2, ranks[0] - 1, ranks[-1] + 1, ranks[-1] + 2]
    return [oracle.RANKS[r] + meld[0][1] for r in spots if 0 <= r < 13]


@settings(max_examples=120, deadline=None)
@given(knock_situations())
def test_defence_is_optimal_and_legal(situation) -> None:
    knocker_melds, defender = situation
    defence = best_defence(knocker_melds, defender)
    # Optimal: equal to trying every layoff sequence, and never worse than no layoffs.
    assert defence.deadwood_value == oracle.defence_deadwood(knocker_melds, defender)
    assert defence.deadwood_value <= min_deadwood(defender)
    # Legal: own melds valid, layoffs valid one after another, every card accounted once.
    assert all(is_meld(m) for m in defence.melds)
    grown = [list(m) for m in knocker_melds]
    for card, index in defence.layoffs:
        grown[index].append(card)
        assert is_meld(grown[index])
    used = [c for m in defence.melds for c in m] + [c for c, _ in defence.layoffs]
    assert sorted(used + list(defence.deadwood)) == sorted(defender)
    assert defence.deadwood_value == sum(card_value(c) for c in defence.deadwood)
