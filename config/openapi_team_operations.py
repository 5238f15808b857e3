"""The team events' and team tournaments' API operations (issue 39): their summaries and
descriptions, a part of config/openapi_operations.py's one table (OPERATIONS), kept apart
only for the table's length."""

from __future__ import annotations

TEAM_OPERATIONS: dict[str, tuple[str, str]] = {
    # -- Team events (issue 39) -----------------------------------------------------------
    "team_events_list": (
        "List team events",
        "Public team events (a team round robin or a team Swiss between club sides); staff "
        "see private ones too.",
    ),
    "team_events_create": (
        "Create a team event",
        "Organisers only (a club's event: its organisers). Boards per team match (1-12), "
        "match points for a team match won, drawn and lost (default 2/1/0), rounds (a team "
        "Swiss; default: enough for a winner).",
    ),
    "team_events_retrieve": ("A team event", "A team event's settings, round and status."),
    "team_events_teams_list": (
        "List a team event's teams",
        "Each side: its number, name, club, captain and roster in board order.",
    ),
    "team_events_teams_create": (
        "Register a team",
        "The event's organisers register a club's side before round 1: a name of its own, a "
        "roster of at least `boards` players on no other team (in board order by rating, or "
        "as given with `by_rating` false), a captain from the roster.",
    ),
    "team_events_lineups_create": (
        "Set a team's lineup for a round",
        "The team's captain or an organiser sets the board order for a round before it is "
        "paired (409 lineup_deadline after): `boards` different players of the roster.",
    ),
    "team_events_rounds_create": (
        "Pair a team event's next round",
        "Pairs the teams (round robin, or Swiss by match points with no avoidable rematch "
        "or forbidden pair) and makes each board's match. `paired` false: it was already.",
    ),
    "team_events_standings_list": (
        "A team event's standings",
        "By match points, then board points (boards won), then Hollywood points.",
    ),
    "team_events_matches_list": (
        "A team event's team-match sheet",
        "Every team match by round and table with its score, and each board's players, "
        "first dealer, match and result.",
    ),
    # A team format's tournament (team_round_robin, team_swiss): the team event it owns,
    # seen as the tournament is; 404 not_a_team_tournament for a tournament of single players.
    "tournaments_teams_list": (
        "List a team tournament's teams",
        "Each side: its number, name, club, captain and roster in board order. 404 "
        "not_a_team_tournament for a tournament of single players.",
    ),
    "tournaments_teams_create": (
        "Register a team in a team tournament",
        "The tournament's organisers register a club's side before round 1: a name of its own, "
        "a roster of at least `boards` players on no other team (in board order by rating, "
        "or as given with `by_rating` false), a captain from the roster.",
    ),
    "tournaments_lineups_list": (
        "A team tournament's lineups",
        "Each team's players in board order for `round` (default: the next to be paired): "
        "the lineup set by its captain or an organiser, else the roster's first boards.",
    ),
    "tournaments_lineups_create": (
        "Set a team tournament's lineup for a round",
        "The team's captain or one of the tournament's organisers sets the board order for a "
        "round before it is paired (409 lineup_deadline after): `boards` different players "
        "of the team's roster.",
    ),
    "tournaments_team_standings_list": (
        "A team tournament's team standings",
        "The teams by match points, then board points (boards won), then Hollywood points.",
    ),
    "tournaments_team_matches_list": (
        "A team tournament's team-match sheets",
        "Every team match (of `round`, or all) with its score, and each board's players, "
        "first dealer, match and result.",
    ),
    "tournaments_team_rounds_create": (
        "Pair a team tournament's next round",
        "Pairs the team tournament's teams (round robin, or Swiss by match points with no "
        "avoidable rematch or forbidden pair) and makes each board's match. `paired` false: "
        "the round was paired already.",
    ),
}
