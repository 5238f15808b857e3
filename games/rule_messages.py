"""The rules engine's messages, for the catalogues (README, "Languages").

The engine (pure Python, no Django) raises its rule errors with an English template and the
values apart (`RuleError.template`, `.params`: "%(card)s is not in your hand"); the one
error path (`core.errors.translated_message`: the API's exception handler and the desk)
shows the template's translation filled with the values, the rule's reference last. These
calls only mark the templates for makemessages; tests/i18n/test_messages.py fails when the
engine raises a template that is not here.
"""

from django.utils.translation import gettext_noop, pgettext_lazy

RULE_MESSAGES = [
    gettext_noop("%(card)s is not in your hand"),
    gettext_noop(
        "%(card)s was just taken from the discard pile and may not be discarded this turn"
    ),
    gettext_noop("%(code)s is not a card: use rank (A23456789TJQK) + suit (CDHS), e.g. '7H'"),
    gettext_noop("%(code)s is not in the hand"),
    gettext_noop("%(code)s is used in two melds"),
    gettext_noop('%(kind)s needs "card", a card code like "7H"'),
    gettext_noop("%(meld)s is not a set or a run"),
    gettext_noop("%(name)s must be a whole number >= 0"),
    gettext_noop("a cancellation needs a reason"),
    gettext_noop("a comment is longer than %(most)s characters"),
    gettext_noop("a deck order must list each of the 52 cards exactly once, top first"),
    gettext_noop("a dispute needs a comment"),
    gettext_noop("a dispute needs a reason"),
    gettext_noop("a dispute needs a statement"),
    gettext_noop("a drawn hand has no knocker, gin or deadwood"),
    gettext_noop("a gin hand has knocker deadwood 0, and deadwood 0 is gin"),
    gettext_noop("a hand is corrected only with a reason"),
    gettext_noop("a hand is voided only with a reason"),
    gettext_noop("a reason is longer than %(most)s characters"),
    gettext_noop("a ruleset must be an object"),
    gettext_noop("a score cannot become negative"),
    gettext_noop("a statement is longer than %(most)s characters"),
    gettext_noop('an action is an object with a "type"'),
    gettext_noop("both players passed the upcard, so the non-dealer draws from the stock"),
    gettext_noop("card %(code)s appears twice"),
    gettext_noop("deadwood %(deadwood)s exceeds the knock limit %(limit)s"),
    gettext_noop("dispute #%(number)s is already closed"),
    gettext_noop("dispute #%(number)s is already dismissed"),
    gettext_noop("dispute #%(number)s is already ruled"),
    gettext_noop("draw a card first"),
    gettext_noop('draw from "stock" or "discard"'),
    gettext_noop('draw needs "source": "stock" or "discard"'),
    gettext_noop("drawn must be true or false"),
    gettext_noop("event %(type)s needs fields %(names)s, got %(got)s"),
    gettext_noop("game %(game)s has ended; its score can no longer be adjusted"),
    gettext_noop("game must be 1 to %(games)s"),
    gettext_noop("gin must be true or false"),
    gettext_noop("hand %(hand)s is already recorded like this"),
    gettext_noop("hand %(hand)s is in play: a past hand is voided between hands"),
    gettext_noop("hand %(hand)s is voided already"),
    gettext_noop("hand_number must be between 1 and %(played)s, or none for the whole match"),
    gettext_noop("hands are recorded only in table mode; online hands are played"),
    gettext_noop("in table mode hands are recorded, not played"),
    gettext_noop("it is the other player's move"),
    gettext_noop('knock "melds" must be a list of lists of card codes'),
    gettext_noop('mode must be "online" or "table"'),
    gettext_noop("no deal is due now"),
    gettext_noop("no dispute #%(number)s in this match"),
    gettext_noop("no hand is in play"),
    gettext_noop("only a match in progress can be cancelled"),
    gettext_noop(
        "only hands recorded in table mode can be corrected; an online hand was played card by "
        "card (void it instead)"
    ),
    gettext_noop("only the match's players open disputes"),
    gettext_noop("outcome must be one of %(outcomes)s"),
    gettext_noop("passing is only possible on the upcard"),
    gettext_noop("points must be a non-zero whole number"),
    gettext_noop("ruleset %(name)s must be an integer from %(low)s to %(high)s, not %(value)s"),
    gettext_noop("ruleset %(name)s must be true or false, not %(value)s"),
    gettext_noop("ruleset games must be 3 (Hollywood) or 1 (plain gin), not %(games)s"),
    gettext_noop("seat %(seat)s has no move now"),
    gettext_noop("take the upcard or pass; the stock is drawn only after both players have passed"),
    gettext_noop("ten cards hold at most %(most)s points of deadwood, not %(deadwood)s"),
    gettext_noop("the discard pile is empty"),
    gettext_noop("the first dealer must be seat 0 or 1"),
    gettext_noop("the knocker must be seat 0 or 1"),
    gettext_noop("the last two stock cards are never drawn"),
    gettext_noop("the match has not started"),
    gettext_noop("the match is over"),
    gettext_noop("the match was cancelled: none of its hands can be corrected"),
    gettext_noop("the match was cancelled: none of its hands can be voided"),
    gettext_noop("the salt must be a string"),
    gettext_noop("there is no card to discard"),
    gettext_noop("there is no finished hand %(hand)s"),
    gettext_noop("there is no hand in play to void"),
    gettext_noop("there is no seat %(seat)s"),
    gettext_noop("unexpected field(s) for %(kind)s: %(fields)s"),
    gettext_noop("unknown action %(action)s"),
    gettext_noop("unknown action type %(kind)s: use pass, draw, discard or knock"),
    gettext_noop("unknown event type %(type)s"),
    gettext_noop("unknown ruleset option(s): %(options)s"),
    gettext_noop("you have drawn already; discard or knock"),
]

# The sections a message names first ("6 knocking: ..." reads "... (rule 6, knocking)").
RULE_SECTIONS = [
    pgettext_lazy("a section of the rules", "a normal turn"),
    pgettext_lazy("a section of the rules", "deadwood"),
    pgettext_lazy("a section of the rules", "discard restriction"),
    pgettext_lazy("a section of the rules", "drawn hand"),
    pgettext_lazy("a section of the rules", "gin"),
    pgettext_lazy("a section of the rules", "knocking"),
    pgettext_lazy("a section of the rules", "the upcard option"),
]
