"""The services' fixed messages, for the catalogues (README, "Languages").

A service raises its error with an English message (its code stays the contract); the one
error path shows it in the reader's language: the API's exception handler
(`config.exception_handler._translated`) and the desk (`web.desk.access.error_message`)
look the message up in the catalogue. gettext_noop only marks these for makemessages; a
message built with values is a template with named placeholders and the values apart
(`core.errors.ApplicationError` `params`; the tournament domain's and the engine's errors
alike); the services mark theirs with gettext_noop where they raise them, the pure
tournament domain's are here, the engine's in games/rule_messages.py.
"""

from django.utils.translation import gettext_noop

SERVICE_MESSAGES = [
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
]
