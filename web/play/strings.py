"""The words of the play page's script (web/static/play/play.js), translated here and
handed to it as JSON, so the script itself holds no text a person reads."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

# A card's name is one sentence per suit with the rank inside ("%(rank)s of hearts"): each
# language puts them in its own order and case ("Herz-Dame", "Širdžių dama", "بی‌بی دل").


def card_name_parts() -> tuple[dict[str, str], dict[str, str]]:
    """(rank -> its word, suit -> the name's template) in the active language."""
    ranks = {
        "A": pgettext("a card's rank, in its name", "Ace"),
        "J": pgettext("a card's rank, in its name", "Jack"),
        "Q": pgettext("a card's rank, in its name", "Queen"),
        "K": pgettext("a card's rank, in its name", "King"),
        "T": "10",
        **{r: r for r in "23456789"},
    }
    suits = {
        "C": pgettext("a card's name", "%(rank)s of clubs"),
        "D": pgettext("a card's name", "%(rank)s of diamonds"),
        "H": pgettext("a card's name", "%(rank)s of hearts"),
        "S": pgettext("a card's name", "%(rank)s of spades"),
    }
    return ranks, suits


def play_strings() -> dict[str, str]:
    ranks, suits = card_name_parts()
    return {
        **{f"card_{k}": v for k, v in ranks.items()},
        **{f"of_{k}": v for k, v in suits.items()},
        "take_upcard": _("Take the upcard"),
        "pass": _("Pass"),
        "draw_stock": _("Draw from the stock"),
        "draw_discard": _("Take the discard"),
        "discard": _("Discard"),
        # The buttons say what the player does (not the finish's name, "a knock", "gin").
        "knock": pgettext("a button: the player knocks", "Knock"),
        "gin": pgettext("a button: the player goes gin", "Go gin"),
        "resign": _("Resign"),
        "next_hand": _("Next hand"),
        "cancel": _("Cancel"),
        "resign_confirm": _("Resign the whole match?"),
        "knock_confirm": _("Knock?"),
        "gin_confirm": _("Go gin?"),
        "discarding": _("Discarding"),
        "deadwood_n": _("deadwood %(n)s"),
        "best_arrangement": _("Your best arrangement, from your own cards:"),
        "lay_how": _("How to lay your melds"),
        "server_lays": _("Let the server lay the best arrangement (recommended)"),
        "kind_knock": _("knock"),
        "kind_gin": _("gin"),
        "kind_undercut": _("undercut"),
        "kind_drawn": _("drawn hand"),
        "kind_big_gin": _("big gin"),
        "hand_won": _("%(name)s scores %(points)s"),
        "hand_drawn": _("No score: the hand is drawn"),
        "to_games": _("to game %(games)s"),
        "laid_by": _("%(name)s laid"),
        "layoffs": _("Laid off:"),
        "hand_n": _("Hand %(n)s"),
        "game_n": _("Game %(n)s"),
        "games_won": _("Games won"),
        "total": _("Total"),
        "you_won": _("You won the match!"),
        "won_by": _("%(name)s won the match."),
        "match_over": _("The match is over."),
        "hand_over": _("The hand is over."),
        "their_move": _("%(name)s to move…"),
        "dealing": _("Dealing…"),
        "first_turn": _("Take the upcard, or pass."),
        "your_draw": _("Your draw: the stock or the discard."),
        "choose_discard": _("Choose a card to discard (or to knock with)."),
        "discard_or_knock": _("Discard it, or knock with it."),
        "cards_n": _("%(n)s cards"),
        "stock_n": _("%(n)s left"),
        "upcard": _("Upcard"),
        "discard_pile": _("Discard pile"),
        "clock": _("%(name)s: %(time)s left"),
        "move_failed": _("The move did not reach the server: try again."),
        "moved_pass": _("%(name)s passed."),
        "moved_stock": _("%(name)s drew from the stock."),
        "moved_discard": _("%(name)s took the discard"),
        "moved_discarded": _("%(name)s discarded"),
        "moved_knock": _("%(name)s knocked, discarding"),
        "moved_gin": _("%(name)s went gin, discarding"),
        "live_live": _("Live"),
        "live_connecting": _("Connecting…"),
        "live_reconnecting": _("Reconnecting…"),
        "live_polling": _("Updates every 5 s"),
        "moved_card": _("%(card)s moved to place %(n)s of %(of)s."),
    }


def lineup_strings() -> dict[str, str]:
    """The words of the lineup script (web/static/play/lineup.js), on the captain's page
    and the desk's team page: a row's place, said aloud after a move."""
    return {
        "board_n": _("Board %(n)s"),
        "reserve": _("Reserve"),
        "moved_board": _("%(name)s: board %(n)s of %(of)s."),
        "moved_reserve": _("%(name)s: reserve, not playing."),
    }
