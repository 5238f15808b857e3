"""The players' reads, now `tournaments.selectors.players` (also importable from
`tournaments.selectors`). Kept only for web/play and web/desk/phone.py, whose owners are
rewriting them; they move their imports and this module goes (issue 31)."""

from tournaments.selectors.players import (
    MatchPlace,
    match_places,
    player_pairings,
    player_standing,
    player_tournament_match_ids,
    player_tournaments,
)

__all__ = [
    "MatchPlace",
    "match_places",
    "player_pairings",
    "player_standing",
    "player_tournament_match_ids",
    "player_tournaments",
]
