"""Every API operation's summary and description, in one table (issue 38), put into the
schema by a postprocessing hook (`add_operation_docs`). One table, not `extend_schema` on
each view: the views stay short, and a new operation is one line here rather than an edit
in a view file others are changing too.

`OPERATIONS[operation_id] = (summary, description)`: the summary is the operation's title
in the docs (Swagger UI, Redoc, docs/clients/reference.md); a description of "" keeps the
view's own docstring, which drf-spectacular already put there. tests/config/
test_operation_docs.py fails when an operation of the served schema has no summary or
description here or there, when two operations share a description (a class docstring
covering several), or when a line names an operation that no longer exists.

Adding an endpoint: find its operationId (`manage.py spectacular | grep operationId`, or
the test's failure message) and add its line. The team events' lines stand in
config/openapi_team_operations.py (TEAM_OPERATIONS, merged into this table)."""

from __future__ import annotations

from typing import Any

from config.openapi_team_operations import TEAM_OPERATIONS

OPERATIONS: dict[str, tuple[str, str]] = {
    # -- Accounts and tokens ------------------------------------------------------------
    "auth_token_create": (
        "Log in: a new token",
        "Exchange a username and password for a new API token (`hg_…`, shown once) that "
        "lasts TOKEN_LOGIN_HOURS. Throttled per client address and per account, apart from "
        "anonymous reads; failed logins lock the account at that address out for a while "
        "(429).",
    ),
    "auth_token_destroy": (
        "Log out",
        "Revoke the token this request is made with (204); with a session, end the session.",
    ),
    "auth_token_refresh_create": ("Renew a login's token", ""),
    "auth_tokens_list": (
        "List your tokens",
        "The caller's own live tokens, never their keys: kind (`login` or `named`), name, "
        "prefix, times, and which one this request used. In the list envelope.",
    ),
    "auth_tokens_create": (
        "Make a named token",
        "A named, long-lived token for a bot or an integration; its key is in this answer "
        "only. It lasts until its optional `expires_at` or until revoked. At most 100 "
        "tokens a person (409 `too_many_tokens`).",
    ),
    "auth_tokens_destroy": ("Revoke one of your tokens", ""),
    "ping_retrieve": ("Check a token", ""),
    "me_retrieve": ("Who am I", ""),
    "streams_ticket_create": ("Get a ticket to follow a stream from a browser", ""),
    # -- Players and clubs --------------------------------------------------------------
    "players_list": (
        "List players",
        "Every player, for anyone signed in; filter by `name`, `username`, `club`, `is_bot`.",
    ),
    "players_create": (
        "Create a player",
        "Organisers: a player with a login of their own (username, optional password).",
    ),
    "players_retrieve": ("Get a player", "One player: name, username, club, bot or not."),
    "players_erase_create": (
        "Erase a player",
        "Erases the player's personal data on their request (staff, and the organisers of "
        "the player's clubs): name, login, e-mail, login codes, tokens, sessions and the words "
        "they wrote, and others' words that name them; every result stays, shown as \"Erased "
        'player #N". Send `{"confirm": true, "reason"}`; a second erase answers 409 '
        "`already_erased`. The erasure is itself an event (who, when, why).",
    ),
    "me_data_retrieve": (
        "My data",
        "Everything held about the caller, their events included, as a JSON file with its "
        "section labels in the caller's language (a person's right of access).",
    ),
    "players_ratings_list": ("A player's rating history in a club", ""),
    "clubs_list": ("List clubs", "Every club, for anyone."),
    "clubs_create": (
        "Create a club",
        "Organisers: a new club (its name, slug, time zone, default ruleset, rating "
        "settings); the caller organises it.",
    ),
    "clubs_retrieve": (
        "Get a club",
        "One club with its settings, for anyone.",
    ),
    "clubs_partial_update": (
        "Change a club",
        "The club's organisers and staff: its name, defaults or rating settings. A change of "
        "the rating settings is an event on the club's stream and re-rates it from its first "
        "period.",
    ),
    "clubs_members_list": ("List a club's members", "The club's members, for anyone signed in."),
    "clubs_members_create": (
        "Add a member to a club",
        "The club's organisers and staff: a player becomes a member.",
    ),
    "clubs_members_destroy": (
        "Remove a member from a club",
        "The club's organisers and staff: a player is a member no longer.",
    ),
    "clubs_ratings_list": ("A club's rating list", ""),
    "clubs_seasons_list": (
        "List a club's seasons",
        "The club's seasons, for anyone: their dates, points per place and best-of rule.",
    ),
    "clubs_seasons_create": (
        "Create a season",
        "The club's organisers: a season (`name`, `starts_on`, `ends_on` in the club's days, "
        "`place_points`, `participation_points`, `best_of`, `tie_order`) counting each "
        "player's best tournaments of the club in that time.",
    ),
    "seasons_standings_list": (
        "A season's standings",
        "The season's standings, in rank order, for anyone; they follow every correction.",
    ),
    "seasons_standings_csv": ("A season's standings as CSV", ""),
    # -- Matches ------------------------------------------------------------------------
    "matches_list": (
        "List matches",
        "Matches anyone signed in may follow, newest first; `mine=true` for the caller's "
        "own; filter by `player`, `status` and `mode`.",
    ),
    "matches_create": (
        "Create a match",
        "Organisers: a match between two players (`player1`, `player2`, `ruleset`, "
        "`first_dealer`, `mode` online or table, and chosen deals with `seed` or `decks`).",
    ),
    "matches_retrieve": ("Get a match as you may see it", ""),
    "matches_actions_create": ("Make a move", ""),
    "matches_events_retrieve": ("A match's events", ""),
    "matches_replay_retrieve": ("A match's state at a version", ""),
    "matches_verify_retrieve": ("Check a match's hash chain", ""),
    "matches_audit_retrieve": ("Download a match's audit bundle", ""),
    "matches_bundle_retrieve": ("The audit bundle (deprecated name)", ""),
    "matches_hands_create": ("Record a hand played at a table", ""),
    "matches_rulings_create": ("Make a ruling on a match", ""),
    "matches_disputes_list": (
        "List a match's disputes",
        "A match's dispute cases, for its players and organisers; `status` open or closed.",
    ),
    "matches_disputes_create": (
        "Open a dispute",
        "A player of the match opens a dispute on a hand (`hand_number`) or the whole match "
        "(`statement`). An event of the match, with no effect on scoring; refused once the "
        "tournament's dispute window has passed (409 `dispute_window_closed`).",
    ),
    "matches_disputes_comments_create": ("Comment on a dispute", ""),
    "matches_disputes_resolve_create": ("Resolve a dispute", ""),
    "disputes_list": ("Your open disputes", ""),
    "practice_create": ("Start a practice match against the bot", ""),
    "matches_stream_retrieve": ("", ""),  # config/openapi.py describes the streams
    # -- Tournaments --------------------------------------------------------------------
    "tournaments_list": (
        "List tournaments",
        "The tournaments the caller may see: public ones for anyone, signed out too; "
        "private ones for their organisers and players.",
    ),
    "tournaments_create": (
        "Create a tournament",
        "Organisers: a tournament (format, ruleset, rounds, schedule, play mode, time zone, "
        "language, and `club` for a club's tournament). Its settings are its "
        "`TournamentCreated` event.",
    ),
    "tournaments_retrieve": (
        "Get a tournament",
        "One tournament with its settings and state, for whoever may see it (a private one "
        "is 404 to strangers).",
    ),
    "tournaments_partial_update": (
        "Change a tournament's settings",
        "Its organisers and staff: one `SettingsChanged` event. Name, publicity, schedule, "
        "durations, rounds, tiebreaks, time zone, language at any time; ruleset, format, "
        "play mode and check-in rule only before it starts (409 `setting_fixed`).",
    ),
    "tournaments_events_list": ("A tournament's decision log", ""),
    "tournaments_registrations_list": (
        "List a tournament's entries",
        "The entries of a tournament in the order they came, with their status (registered, "
        "checked in, withdrawn).",
    ),
    "tournaments_registrations_create": (
        "Register a player",
        "Register a player (the caller's own by default; another, for its organisers). "
        "Late entry is allowed until the round is paired.",
    ),
    "tournaments_registrations_check_in_create": (
        "Check a player in",
        "Its organisers (or the player, for themselves): the player is present and will be paired.",
    ),
    "tournaments_registrations_check_in_undo_create": ("Undo a check-in", ""),
    # Calendar feeds (issue 40).
    "clubs_calendar_ics": (
        "A club's tournaments as a calendar",
        "iCalendar (text/calendar) of the club's tournaments from yesterday on, each at its "
        "start in its own time zone (DTSTART with TZID, the zone's VTIMEZONE included). "
        "Public tournaments for everyone, signed out too; the club's organisers also see "
        "the private ones.",
    ),
    "calendar_ics": (
        "A player's own calendar",
        "iCalendar of the player's rounds (table, opponent) and of the tournaments they hold "
        "a place in, in their language and each tournament's zone. The address is the "
        "secret (calendar apps send no tokens): GET /api/me/calendar/ gives it.",
    ),
    "me_calendar_retrieve": (
        "My calendar feed's address",
        "The address of the caller's own calendar feed (made on first use). Keep it secret.",
    ),
    "me_calendar_create": (
        "A new calendar feed address",
        "Revoke the caller's calendar address and make a new one: the old one answers 404 "
        "from now on.",
    ),
    # Places, the waitlist, approvals, no-shows, entry rules (issue 40).
    "tournaments_capacity_create": (
        "Set a tournament's capacity",
        "Organisers: the number of places (null: no limit). Entries beyond it are "
        "waitlisted; a raised capacity promotes the first waiting players at once "
        "(CapacityChanged, then PlayerPromoted each).",
    ),
    "tournaments_entry_rules_retrieve": (
        "Get a tournament's entry rules",
        "Organisers: who may enter themselves (club members only, a rating band, an "
        "invitation list, approval by the organisers) and the withdrawal and check-in "
        "deadlines, in the tournament's zone.",
    ),
    "tournaments_entry_rules_partial_update": (
        "Change a tournament's entry rules",
        "Organisers: change any of the entry rules. A check-in deadline queues the no-show "
        "job for that time: registered players not checked in by then are withdrawn as "
        "no-shows and the waitlist promoted.",
    ),
    "tournaments_payments_retrieve": (
        "A tournament's cash sheet",
        "Organisers: every player holding a place (and anyone whose payment was recorded), "
        "in order of entry, with their payment (paid, unpaid or waived), the fee and its "
        "currency, and the total collected. Also on the desk as a print and an .xlsx.",
    ),
    "tournaments_payments_create": (
        "Record an entry fee",
        "Organisers: a registered player's fee is paid (the tournament's fee), unpaid or "
        "waived; the cash sheet after it is returned. No payment processor: clubs take cash "
        "or transfers (409 `not_registered` for a player with no entry).",
    ),
    "me_notices_list": (
        "My notices",
        "The caller's latest notices, newest first (at most 30): registered, waitlisted, "
        "promoted, a round paired, a hand awaiting their confirmation, a dispute ruled, the "
        "reminder the day before. Subject and summary in the caller's language and the "
        "tournament's zone; `emailed` tells whether it was also e-mailed.",
    ),
    "me_notices_settings_retrieve": (
        "My notice settings",
        "The kinds of notice the caller gets no e-mail of (every notice is still listed).",
    ),
    "me_notices_settings_update": (
        "Change my notice settings",
        "Set the kinds of notice the caller wants no e-mail of; the others are e-mailed.",
    ),
    "tournaments_registrations_approve_create": (
        "Approve an entry",
        "Organisers: an entry awaiting approval is registered, or waitlisted if the places "
        "are taken. Approving twice changes nothing.",
    ),
    "tournaments_registrations_refuse_create": (
        "Refuse an entry",
        "Organisers: refuse an entry awaiting approval or a place (409 `not_refusable` otherwise).",
    ),
    "tournaments_registrations_no_show_undo_create": (
        "Take back a no-show",
        "Organisers: a player withdrawn as a no-show is registered again, until round 1 is "
        "paired (409 `already_paired` after); if their place went to the waitlist meanwhile, "
        "they wait, ahead of those who entered after them (NoShowUndone, PlayerWaitlisted).",
    ),
    "tournaments_registrations_withdraw_create": (
        "Withdraw a player",
        "Its organisers (or the player, for themselves), with a reason: the player is paired "
        "no more. With `forfeit_current` (organisers only), their match still in play is "
        "forfeited to the opponent.",
    ),
    "tournaments_rounds_list": (
        "List a tournament's rounds",
        "The rounds with their status, scheduled start, pairing time, deadline and clock.",
    ),
    "tournaments_rounds_start_create": ("Pair and start the next round", ""),
    "tournaments_rounds_repair_create": ("Re-pair a round", ""),
    "tournaments_rounds_pairings_create": ("Set a round's pairings by hand", ""),
    "tournaments_rounds_clock_create": ("Start a round's clock", ""),
    "tournaments_rounds_deadline_create": ("Move a round's deadline", ""),
    "tournaments_rounds_rulings_create": ("Rule a forfeit in a round", ""),
    "tournaments_pairings_list": (
        "List a tournament's pairings",
        "Every pairing (`round=N` for one round): table, players, match, result.",
    ),
    "tournaments_results_take_create": ("Take results that never arrived", ""),
    "tournaments_standings_list": (
        "A tournament's standings",
        "The standings in rank order with every tiebreak's value, as they stand after the "
        "results so far; ranks are never shared (a last tie falls to player id).",
    ),
    "tournaments_standings_csv": ("A tournament's standings as CSV", ""),
    "tournaments_results_csv": ("A tournament's results as CSV", ""),
    "federations_members_list": (
        "A federation's member list",
        "Staff and the organisers of its clubs: by federation id, each with the player linked.",
    ),
    "federations_members_import": (
        "Import a federation's member list",
        "A CSV or XLSX file (federation_id, name, club; birth_year, country optional): each "
        "row linked to its club's player of that name; the report says what matched, what is "
        "new and what conflicts (dry_run: the report only).",
    ),
    "federations_ratings_list": ("A federation's rating list", ""),
    "federations_report_csv": ("A federation's monthly rating report as CSV", ""),
    "federations_report_hgx": ("A federation's monthly rating report as HGXR", ""),
    "tournaments_exchange_retrieve": (
        "A finished tournament's results exchange file",
        "HGX 2 (text/plain): players with federation ids, rounds, tables, dealers, results "
        "and standings; a bracket's (knockout, double elimination, Swiss with a top cut) HGX 3, "
        "its seeds and each table's bracket match too; checked by tools/check_exchange.py "
        "(docs/explanation/exchange-format.md). 409 exchange_unsupported before it finishes.",
    ),
    "tournaments_bracket_retrieve": ("A tournament's bracket", ""),
    "tournaments_forbidden_pairs_retrieve": (
        "List the pairs kept apart",
        "Pairs of players who must not meet (one household, a team's members), for the "
        "tournament's organisers.",
    ),
    "tournaments_forbidden_pairs_create": (
        "Keep two players apart",
        "The tournament's organisers: a pair (`players`, `reason`) that Swiss rounds and a "
        "bracket's first round keep apart wherever any pairing can. A round robin refuses "
        "them (409).",
    ),
    "tournaments_forbidden_pairs_destroy": (
        "Let two players meet again",
        "The tournament's organisers: remove a forbidden pair.",
    ),
    "tournaments_stream_retrieve": ("", ""),  # config/openapi.py describes the streams
    "tournaments_teams_stream_retrieve": ("", ""),
    "team_events_stream_retrieve": ("", ""),
    # -- Webhooks -----------------------------------------------------------------------
    "tournaments_webhooks_list": (
        "List a tournament's webhooks",
        "The tournament's webhook endpoints (never their secrets), for its organisers.",
    ),
    "tournaments_webhooks_create": (
        "Register a webhook",
        "A URL that receives the tournament's events as they are committed, signed; the "
        "answer holds the signing secret, shown this once.",
    ),
    "tournaments_webhooks_retrieve": (
        "Get a webhook",
        "One endpoint: URL, event types, active or paused, the secret's prefix.",
    ),
    "tournaments_webhooks_partial_update": ("Change a webhook", ""),
    "tournaments_webhooks_destroy": (
        "Delete a webhook",
        "The endpoint receives nothing more; its delivery log goes with it.",
    ),
    "tournaments_webhooks_deliveries_list": ("A webhook's delivery log", ""),
    "tournaments_webhooks_deliveries_redeliver_create": ("Send a delivery again", ""),
    "tournaments_webhooks_redeliver_create": ("Send events again from a position", ""),
    **TEAM_OPERATIONS,
}


def add_operation_docs(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: each operation's summary and description from
    OPERATIONS (an empty value leaves what the view or config/openapi.py gave)."""
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or "operationId" not in operation:
                continue
            summary, description = OPERATIONS.get(operation["operationId"], ("", ""))
            if summary:
                operation["summary"] = summary
            if description:
                operation["description"] = description
    return result
