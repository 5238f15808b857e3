"""Reads about tournaments (services write, selectors read: STYLE 2), by what they ask:

- `access`: who may see or organise a tournament, act as a player, follow a match;
- `reads`: a tournament's rows: rounds, registrations, pairings, standings and places,
  its bracket, its language;
- `history`: its event stream as each viewer may see it, corrections, round notes;
- `schedule`: the round clock, what the scheduler must pair, overdue rounds, alerts;
- `pages`: what the pages (web/) read, as lists and plain values, not querysets;
- `players`: what the players' pages read: a match's place, a player's evening;
- `exports`: the standings and results tables, CSV and the JSON Lines export;
- `anchors`: signed checkpoints handed out with the history; `match_policy`: what
  tournaments decide about their matches (games.policy).

Every name below may be imported from `tournaments.selectors` itself."""

from __future__ import annotations

from tournaments.selectors.access import (
    User,
    match_followable,
    match_in_public_tournament,
    matches_followable,
    matches_hidden_from,
    tournament_get,
    tournament_list_for,
    user_can_organise,
    user_may_act_as_player,
)
from tournaments.selectors.exports import (
    RESULTS_COLUMNS,
    STANDINGS_COLUMNS,
    tournament_results_table,
    tournament_standings_table,
)
from tournaments.selectors.history import (
    results_corrected_after_pairing,
    results_corrected_of_table,
    tournament_events,
    tournament_followed,
    tournament_round_notes,
    tournament_rounds_set_by_hand,
    tournament_stream_events,
    tournament_stream_heads,
)
from tournaments.selectors.pages import (
    RoundWithPairings,
    matches_followable_newest,
    tournament_pairing_at,
    tournament_pairing_list,
    tournament_pairing_of_match,
    tournament_player_ids,
    tournament_registration_list,
    tournament_registration_of,
    tournament_registrations_with_accounts,
    tournament_registrations_with_status,
    tournament_round,
    tournament_round_list,
    tournament_rounds_completed,
    tournament_rounds_with_pairings,
    tournaments_newest_for,
    tournaments_organised_by,
)
from tournaments.selectors.players import (
    MatchPlace,
    match_place,
    match_places,
    player_pairings,
    player_standing,
    player_tournament_match_ids,
    player_tournaments,
)
from tournaments.selectors.reads import (
    active_registration_count,
    knockout_dependent_match_in_play,
    match_dispute_window,
    pairings_in_play_of,
    tournament_bracket,
    tournament_forbidden_pairs,
    tournament_jalali_dates,
    tournament_language,
    tournament_pairings,
    tournament_places,
    tournament_registrations,
    tournament_rounds,
    tournament_standings,
    tournament_tiebreak_order,
)
from tournaments.selectors.schedule import (
    ROUND_OVERDUE_AFTER,
    pairing_overdue,
    round_start,
    rounds_overdue,
    tournament_alert_recipients,
    tournament_next_round_due,
    tournament_round_clock,
    tournaments_with_rounds_due,
)

__all__ = [
    "RoundWithPairings",
    "matches_followable_newest",
    "tournament_pairing_at",
    "tournament_pairing_list",
    "tournament_pairing_of_match",
    "tournament_player_ids",
    "tournament_registration_list",
    "tournament_registration_of",
    "tournament_registrations_with_accounts",
    "tournament_registrations_with_status",
    "tournament_round",
    "tournament_round_list",
    "tournament_rounds_completed",
    "tournament_rounds_with_pairings",
    "tournaments_newest_for",
    "tournaments_organised_by",
    "MatchPlace",
    "RESULTS_COLUMNS",
    "ROUND_OVERDUE_AFTER",
    "STANDINGS_COLUMNS",
    "User",
    "active_registration_count",
    "knockout_dependent_match_in_play",
    "match_dispute_window",
    "match_followable",
    "match_in_public_tournament",
    "match_place",
    "match_places",
    "matches_followable",
    "matches_hidden_from",
    "pairing_overdue",
    "pairings_in_play_of",
    "player_pairings",
    "player_standing",
    "player_tournament_match_ids",
    "player_tournaments",
    "results_corrected_after_pairing",
    "results_corrected_of_table",
    "round_start",
    "rounds_overdue",
    "tournament_alert_recipients",
    "tournament_bracket",
    "tournament_events",
    "tournament_followed",
    "tournament_forbidden_pairs",
    "tournament_get",
    "tournament_jalali_dates",
    "tournament_language",
    "tournament_list_for",
    "tournament_next_round_due",
    "tournament_pairings",
    "tournament_places",
    "tournament_registrations",
    "tournament_results_table",
    "tournament_round_clock",
    "tournament_round_notes",
    "tournament_rounds",
    "tournament_rounds_set_by_hand",
    "tournament_standings",
    "tournament_standings_table",
    "tournament_stream_events",
    "tournament_stream_heads",
    "tournament_tiebreak_order",
    "tournaments_with_rounds_due",
    "user_can_organise",
    "user_may_act_as_player",
]
