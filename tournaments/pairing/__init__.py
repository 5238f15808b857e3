"""Pure pairing and standings code for tournaments (no Django import).

Public API (contract E in /work/notes/contracts.md)."""

from tournaments.pairing.double_elimination import (
    BracketMatch,
    BracketResultError,
    DoubleElimination,
    double_elimination,
)
from tournaments.pairing.forbidden import (
    ForbiddenPairInRoundRobinError,
    Pairing,
    knockout_first_round_avoiding,
    swiss_pair_avoiding,
)
from tournaments.pairing.hand_pairings import (
    HandPairing,
    HandPairingConflictError,
    HandPairingError,
    check_hand_pairings,
)
from tournaments.pairing.knockout import (
    bracket_size,
    knockout_first_round,
    knockout_next_round,
    knockout_next_slots,
    seed_order,
)
from tournaments.pairing.pair import Pair
from tournaments.pairing.round_robin import round_robin_rounds
from tournaments.pairing.standings import (
    TIEBREAK_CHOICES,
    TIEBREAKS,
    Result,
    Standing,
    standings,
    tied_groups,
)
from tournaments.pairing.swiss import SwissPlayer, count_rematches, min_rematches, swiss_pair
from tournaments.pairing.top_cut import (
    TOP_CUT_SIZES,
    Place,
    TopCutSizeError,
    TopCutTooLargeError,
    check_top_cut_size,
    swiss_order,
    third_place_pair,
    top_cut_seeds,
    top_cut_standing,
)

__all__ = [
    "HandPairing",
    "HandPairingConflictError",
    "HandPairingError",
    "check_hand_pairings",
    "ForbiddenPairInRoundRobinError",
    "Pairing",
    "knockout_first_round_avoiding",
    "swiss_pair_avoiding",
    "BracketMatch",
    "BracketResultError",
    "DoubleElimination",
    "double_elimination",
    "TIEBREAKS",
    "TIEBREAK_CHOICES",
    "Pair",
    "Result",
    "Standing",
    "SwissPlayer",
    "bracket_size",
    "count_rematches",
    "knockout_first_round",
    "knockout_next_round",
    "knockout_next_slots",
    "min_rematches",
    "round_robin_rounds",
    "seed_order",
    "standings",
    "tied_groups",
    "TOP_CUT_SIZES",
    "Place",
    "TopCutSizeError",
    "TopCutTooLargeError",
    "check_top_cut_size",
    "swiss_order",
    "third_place_pair",
    "top_cut_seeds",
    "top_cut_standing",
    "swiss_pair",
]
