"""Reads about matches (services write, selectors read: STYLE 2), by what they do:

- `visibility`: who may see a match (its players, organisers and staff; anyone else as the
  match policy says, games/policy.py), `match_get`;
- `lists`: the match rows: outcomes for other apps, the lists a user may see, preset deals;
- `followed`: what a match's live stream reads after each commit (its copy of the stream);
- `views`: the state at any version (snapshot + events since) and each viewer's view, with
  players named by id;
- `replay`: the event stream with hidden cards removed, the full state for an audit;
- `ratings`: how a match ended and its hands, for a club's ratings (and a player's page);
- `integrity`: hash chains, streams cut short, snapshots checked against a replay.

The audit page's frames and the audit bundle are in `games.audit`. Every name below may be
imported from `games.selectors` itself."""

from games.engine.ruleset import MAX_DEADWOOD  # the pages' deadwood fields
from games.selectors.followed import MatchFollowed, match_followed, match_followed_forget
from games.selectors.integrity import (
    match_read_models_differences,
    match_verify,
    matches_cut_short,
    snapshots_check,
    snapshots_superseded,
)
from games.selectors.lists import (
    MatchOutcome,
    match_hand_rows,
    match_has_preset_deals,
    match_list_followable,
    match_list_for,
    match_outcomes,
    matches_online_in_play_of,
    matches_with_preset_deals,
    ruleset_normalise,
)
from games.selectors.ratings import (
    MatchRatingFacts,
    PlayerMatchStats,
    match_rating_facts,
    player_match_stats,
)
from games.selectors.replay import match_events_for, match_replay
from games.selectors.table_entries import (
    table_entries_latest,
    table_entries_open,
    table_entry_latest,
    table_entry_open,
)
from games.selectors.views import (
    match_state_at,
    match_view_for,
    scoresheet_for,
    seats_as_players,
)
from games.selectors.visibility import (
    User,
    match_get,
    match_id_is_public,
    match_is_public,
    match_seat_for,
    match_visible_to,
    player_in_match,
    user_can_organise_match,
)

__all__ = [
    "table_entries_latest",
    "table_entries_open",
    "table_entry_latest",
    "table_entry_open",
    "MAX_DEADWOOD",
    "MatchFollowed",
    "MatchOutcome",
    "MatchRatingFacts",
    "PlayerMatchStats",
    "User",
    "match_events_for",
    "match_followed",
    "match_followed_forget",
    "match_get",
    "match_hand_rows",
    "match_has_preset_deals",
    "match_id_is_public",
    "match_is_public",
    "match_list_followable",
    "match_list_for",
    "match_outcomes",
    "matches_online_in_play_of",
    "match_rating_facts",
    "match_read_models_differences",
    "match_replay",
    "match_seat_for",
    "match_state_at",
    "match_verify",
    "match_view_for",
    "match_visible_to",
    "matches_cut_short",
    "matches_with_preset_deals",
    "player_in_match",
    "player_match_stats",
    "ruleset_normalise",
    "scoresheet_for",
    "seats_as_players",
    "snapshots_check",
    "snapshots_superseded",
    "user_can_organise_match",
]
