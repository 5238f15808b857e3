"""Commands on matches. Each service loads the stream (latest snapshot + the events since),
lets the engine decide, appends the events and updates the read models in ONE transaction.
Randomness (shuffles, salts) is decided here and carried in the events (STYLE 1).

`play`: create a match, a player's action; `results`: table hands and rulings; `shared`:
what both use (the result value, the next deal). Every name
below may be imported from `games.services` itself."""

from games.errors import not_a_player_error
from games.services.play import (
    MODES,
    match_act,
    match_act_in_tx,
    match_create,
    match_create_in_tx,
    match_play_in_tx,
)
from games.services.privacy import match_personal_data_erase_in_tx
from games.services.rebuild import match_read_models_rebuild
from games.services.results import (
    RULING_TYPES,
    match_record_hand,
    match_record_hand_in_tx,
    match_rule,
    match_rule_in_tx,
)
from games.services.shared import MatchResult, seeded_deck

__all__ = [
    "MODES",
    "RULING_TYPES",
    "MatchResult",
    "match_act",
    "match_act_in_tx",
    "match_create",
    "match_create_in_tx",
    "match_play_in_tx",
    "match_personal_data_erase_in_tx",
    "match_read_models_rebuild",
    "match_record_hand",
    "match_record_hand_in_tx",
    "match_rule",
    "match_rule_in_tx",
    "not_a_player_error",
    "seeded_deck",
]
