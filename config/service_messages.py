"""The services' fixed messages, for the catalogues (README, "Languages").

A service raises its error with an English message (its code stays the contract); the one
error path shows it in the reader's language: the API's exception handler
(`config.exception_handler._translated`) and the desk (`web.desk.access.error_message`)
look the message up in the catalogue. gettext_noop only marks these for makemessages; a
message built with values is a template with named placeholders and the values apart
(`core.errors.ApplicationError` `params`; the tournament domain's and the engine's errors
alike); the services mark theirs with gettext_noop where they raise them, the pure
tournament domain's (and the pairing code's and the rating settings', which carry
`template` and `params` too) are here, the engine's in games/rule_messages.py, the event
store's in eventstore/. tests/i18n/test_error_messages.py fails when a raised message is
missing from a catalogue.
"""

from django.utils.translation import gettext_noop

SERVICE_MESSAGES = [
    # A round imported from an exchange file (tournaments.domain.decide.imports, issue 39).
    gettext_noop("round %(round)s: a result for no table of it"),
    gettext_noop("round %(round)s table %(table)s: no such winner"),
    gettext_noop("round %(round)s: a table without a result"),
    gettext_noop("round %(round)s: tables 1 to n, each player once, one bye at most"),
    # Places, the waitlist and no-shows (tournaments.domain.decide.waitlist, issue 40).
    gettext_noop("the player has no place in the tournament (waitlisted or not approved)"),
    gettext_noop("only an entry waiting for approval or a place can be refused"),
    gettext_noop("a capacity is at least 2 players"),
    gettext_noop("the player is not a no-show"),
    gettext_noop("round 1 has been paired: a no-show can no longer be undone"),
    gettext_noop("a Swiss tournament needs a number of rounds"),
    gettext_noop("a match of this round has started"),
    gettext_noop("a re-pairing needs a reason"),
    gettext_noop("a ruling needs a reason"),
    gettext_noop("a table match has no deals: no seed or decks"),
    gettext_noop("a tournament needs a name"),
    gettext_noop("adjust_score needs integer game and points"),
    gettext_noop("at least two players must be checked in"),
    gettext_noop("at most one bye per round"),
    gettext_noop("confirm from your own login"),
    gettext_noop("correct_hand needs the hand_number"),
    gettext_noop("hand_number is a whole number"),
    gettext_noop("no such club"),
    gettext_noop("no such entry"),
    gettext_noop("no such player"),
    gettext_noop("no such tournament"),
    gettext_noop("nobody is left to pair"),
    gettext_noop("only a Swiss tournament has a number of rounds"),
    gettext_noop("only a round in play has a clock to start"),
    gettext_noop("only a table match records hands"),
    gettext_noop("only an organiser of this match may do this"),
    gettext_noop("only an organiser of this match resolves its disputes"),
    gettext_noop("only organisers enter players in a private tournament"),
    gettext_noop("only organisers may create tournaments"),
    gettext_noop("only organisers rule a forfeit"),
    gettext_noop("only the club's organisers may create its tournaments"),
    gettext_noop("only the match's players and organisers comment"),
    gettext_noop("only the match's players open disputes"),
    gettext_noop("only the player or an organiser may do this"),
    gettext_noop("only the tournament's organisers may change its settings"),
    gettext_noop("only who entered it may withdraw it"),
    gettext_noop("play_mode must be online or table"),
    gettext_noop("resign takes no other fields"),
    gettext_noop("say what is wrong with the entry"),
    gettext_noop("the match is over"),
    gettext_noop("the next round is %(round)s"),
    gettext_noop("the pairs must name every active player exactly once"),
    gettext_noop("round %(round)s is still in play"),
    gettext_noop("the player has withdrawn"),
    gettext_noop("the player is already registered"),
    gettext_noop("the player is not registered"),
    gettext_noop("the round's clock has already been started"),
    gettext_noop("the tournament has finished"),
    gettext_noop("unknown language"),
    gettext_noop("you are not a player in this match"),
    # the API's plumbing (core)
    gettext_noop("Idempotency-Key must be at most 255 characters."),
    gettext_noop("Last-Event-ID (or after) must be a version: a whole number"),
    gettext_noop("This Idempotency-Key was used for a different request."),
    # matches, disputes, audits and practice (games)
    gettext_noop('a "ruled" outcome needs the ruling'),
    gettext_noop("a hand entered at this table waits for confirmation"),
    gettext_noop("a match needs two different players"),
    gettext_noop("knocker_deadwood and defender_deadwood are counts of 0 or more"),
    gettext_noop("no such match"),
    gettext_noop("only the match's players act in it"),
    gettext_noop(
        "only the match's players and organisers may download its audit bundle (anyone may"
        " once a match of a public tournament is finished)"
    ),
    gettext_noop(
        "only the match's players and organisers may replay it (anyone, a public match's)"
    ),
    gettext_noop("only the match's players and organisers see its disputes"),
    gettext_noop("practice is for a player who signs in"),
    gettext_noop("practice is for players"),
    gettext_noop("the knocker must be a player of the match"),
    gettext_noop("the match is in play: export it as one of its players or organisers"),
    gettext_noop("the opponent confirms or disputes a hand, not who entered it"),
    # players, accounts and sign-in (players)
    gettext_noop("That code is not valid: it may be mistyped, used or expired. Ask the desk."),
    gettext_noop("Unable to log in with these credentials."),
    gettext_noop("You have no player."),
    gettext_noop("expires_at must be in the future"),
    gettext_noop("no such token"),
    # tournaments: the pure domain (decide, pairing, ratings), clubs and seasons, imports, webhooks
    gettext_noop("%(name)s is out of range"),
    gettext_noop("%(name)s must be a positive number"),
    gettext_noop("%(name)s must be between 0 and 10000"),
    gettext_noop("%(name)s must be at most 1000"),
    gettext_noop("%(name)s must not exceed rd_max"),
    gettext_noop("a club needs a name"),
    gettext_noop("a club of that name already exists"),
    gettext_noop(
        "a double elimination's bracket is drawn from the seeds: it cannot be set by hand"
    ),
    gettext_noop("a forbidden pair names two different players"),
    gettext_noop("a forbidden pair names two players"),
    gettext_noop("a season ends after it starts"),
    gettext_noop("a season needs a name"),
    gettext_noop("a top cut needs two eligible players, not %(eligible)s"),
    gettext_noop("a top cut of %(size)s is larger than the field (%(field)s)"),
    gettext_noop("a top cut of %(size)s is not one of %(sizes)s"),
    gettext_noop("both players must be entered in the tournament"),
    gettext_noop("credentials in the URL are not allowed; the signature authenticates"),
    gettext_noop("from_position starts at 1"),
    gettext_noop("in a round robin everyone meets everyone: no pair can be kept apart"),
    gettext_noop("late entry is only possible in a Swiss tournament"),
    gettext_noop("no such delivery"),
    gettext_noop("no such season"),
    gettext_noop("no such table in that round"),
    gettext_noop("no such webhook"),
    gettext_noop("not a member of this club"),
    gettext_noop("only http and https URLs are allowed"),
    gettext_noop("only organisers may create clubs"),
    gettext_noop("only the club's organisers may do this"),
    gettext_noop("only the player may choose who sees their page"),
    gettext_noop("only the tournament's organisers and staff manage webhooks"),
    gettext_noop("only the tournament's organisers may do this"),
    gettext_noop("only the tournament's organisers see its forbidden pairs"),
    gettext_noop("round 1 is scheduled for %(scheduled)s: confirm to start it now"),
    gettext_noop("the URL has no host"),
    gettext_noop("the bracket cannot take the results recorded: %(problem)s"),
    gettext_noop("the bracket has no match %(matches)s"),
    gettext_noop("the bracket's match %(match)s is not to be played (%(status)s)"),
    gettext_noop("player %(player)s did not play the bracket's match %(match)s"),
    gettext_noop("the deadline needs a time zone"),
    gettext_noop("the file ends early (no end line): it was cut short"),
    gettext_noop("the header is malformed"),
    gettext_noop("the pairs must name every active player exactly once, at most one bye"),
    gettext_noop("the player has been paired: withdraw them instead"),
    gettext_noop('the setting "%(setting)s" cannot change once the tournament has started'),
    gettext_noop("the tournament is at version %(current)s, not %(expected)s"),
    gettext_noop("the tournament's version is not its stream's last"),
    gettext_noop("the winner must be one of the pairing's players"),
    gettext_noop(
        "these pairs repeat an earlier pairing or break a forbidden pair: send them again"
        " with confirm to keep them"
    ),
    gettext_noop("this pairing already has a result"),
    gettext_noop("visibility must be public or club"),
    gettext_noop("you have no player; name one"),
]
