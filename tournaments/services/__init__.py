"""The tournament's commands, one module each: creation, settings, registration, rounds,
results, rulings. Each loads the tournament (tournaments.repository), lets the domain
decide (tournaments.domain.decide), saves the events (one append, the projections, jobs
queued through the outbox) and returns a result value. This is the public service API:
callers import it from here."""

from tournaments.services.creation import tournament_create, tournament_create_by_ids
from tournaments.services.registration import (
    tournament_check_in,
    tournament_check_in_undo,
    tournament_register,
    tournament_withdraw,
)
from tournaments.services.results import (
    tournament_match_result_record,
    tournament_match_result_withdraw,
    tournament_results_reconcile,
    tournament_results_take,
)
from tournaments.services.rounds import (
    tournament_forbidden_pair_add,
    tournament_forbidden_pair_remove,
    tournament_round_pair,
    tournament_round_repair,
    tournament_round_start_next,
    tournament_round_unpairable,
    tournament_rounds_due_queue,
    tournament_start,
)
from tournaments.services.rulings import (
    tournament_deadlines_enforce,
    tournament_result_rule,
    tournament_round_clock_start,
    tournament_round_deadline_move,
)
from tournaments.services.settings import tournament_settings_change
from tournaments.services.validation import EARLIEST_INSTANT, LATEST_INSTANT, MAX_DURATION

__all__ = [
    "EARLIEST_INSTANT",
    "LATEST_INSTANT",
    "MAX_DURATION",
    "tournament_check_in",
    "tournament_check_in_undo",
    "tournament_create",
    "tournament_create_by_ids",
    "tournament_deadlines_enforce",
    "tournament_forbidden_pair_add",
    "tournament_forbidden_pair_remove",
    "tournament_match_result_record",
    "tournament_match_result_withdraw",
    "tournament_register",
    "tournament_result_rule",
    "tournament_results_reconcile",
    "tournament_results_take",
    "tournament_round_clock_start",
    "tournament_round_deadline_move",
    "tournament_round_pair",
    "tournament_round_repair",
    "tournament_round_start_next",
    "tournament_round_unpairable",
    "tournament_rounds_due_queue",
    "tournament_settings_change",
    "tournament_start",
    "tournament_withdraw",
]
