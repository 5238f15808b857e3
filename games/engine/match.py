"""The match state machine: `decide(state, action) -> events` checks the rules (RULES.md)
and raises a RuleError naming the rule; `evolve(state, event) -> state` applies an event
with no checks. Pure: no clock, no randomness (the deck and salt come in the Deal action)."""

from __future__ import annotations

from collections.abc import Iterable

from games.engine import melds
from games.engine.actions import (
    Action,
    AdjustScore,
    Deal,
    Discard,
    Draw,
    Forfeit,
    Knock,
    Pass,
    RecordDrawnHand,
    RecordHand,
    Resign,
    VoidHand,
)
from games.engine.cards import card_index, validate_deck
from games.engine.errors import IllegalActionError, InvalidCardError, NotYourTurnError
from games.engine.events import (
    CardDiscarded,
    CardDrawn,
    DefenceLaidOut,
    Event,
    GameWon,
    HandDealt,
    HandDrawn,
    HandRecorded,
    HandScored,
    HandVoided,
    Knocked,
    MatchFinished,
    MatchForfeited,
    MatchStarted,
    PlayerResigned,
    ScoreAdjusted,
    UpcardPassed,
)
from games.engine.evolve import evolve
from games.engine.ruleset import Ruleset
from games.engine.scoresheet import (
    Scoresheet,
    match_winner,
    score_hand,
    scoresheet_adjust,
    scoresheet_close_reached,
    scoresheet_win,
)
from games.engine.state import MatchState, commitment, initial_state

__all__ = [
    "decide",
    "evolve",
    "replay",
    "start_match",
    "needs_deal",
    "legal_actions",
    "knock_options",
    "initial_state",
    "commitment",
]

MAX_DEADWOOD = 98  # 10 cards without a meld hold at most 8 tens and two nines


def start_match(*, ruleset: Ruleset, first_dealer: int, mode: str = "online") -> list[Event]:
    """The first event of a match. The first dealer is chosen at random outside (RULES 3)."""
    if first_dealer not in (0, 1) or isinstance(first_dealer, bool):
        raise IllegalActionError("the first dealer must be seat 0 or 1", rule="3 dealing")
    if mode not in ("online", "table"):
        raise IllegalActionError('mode must be "online" or "table"', rule="table mode")
    return [MatchStarted(ruleset=ruleset.to_dict(), first_dealer=first_dealer, mode=mode)]


def replay(events: Iterable[Event], state: MatchState | None = None) -> MatchState:
    for event in events:
        state = evolve(state if state is not None else initial_state(), event)
    return state if state is not None else initial_state()


def needs_deal(state: MatchState) -> bool:
    """An online match in progress with no hand in play: the service decides Deal next."""
    return (
        state.status == "in_progress" and state.mode == "online" and state.phase == "awaiting_deal"
    )


def decide(state: MatchState, action: Action) -> list[Event]:
    """The events an action causes, including every automatic consequence (defence,
    scoring, games won, match end). Raises a RuleError subclass if the action is illegal."""
    if state.status == "new":
        raise IllegalActionError("the match has not started", rule="match start")
    if state.status == "finished":
        raise IllegalActionError("the match is over", rule="8 match end")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalActionError(f"unknown action {type(action).__name__}", rule="actions")
    return handler(state, action)


# --- dealing and play -------------------------------------------------------------------


def _decide_deal(state: MatchState, action: Deal) -> list[Event]:
    if not needs_deal(state):
        raise IllegalActionError("no deal is due now", rule="3 dealing")
    deck = validate_deck(action.deck)
    if not isinstance(action.salt, str):
        raise IllegalActionError("the salt must be a string", rule="3 dealing")
    return [
        HandDealt(
            hand_number=state.hand_number + 1,
            dealer=_seat(state.dealer),
            deck=list(deck),
            salt=action.salt,
            commitment=commitment(deck, action.salt),
        )
    ]


def _require_turn(state: MatchState, seat: int) -> None:
    if state.mode != "online":
        raise IllegalActionError("in table mode hands are recorded, not played", rule="table mode")
    if not state.in_play:
        raise IllegalActionError("no hand is in play", rule="3 dealing")
    if seat not in (0, 1):
        raise IllegalActionError(f"there is no seat {seat!r}", rule="seats")
    if seat != state.turn:
        raise NotYourTurnError(f"it is seat {state.turn}'s move", rule="5 a normal turn")


def _decide_pass(state: MatchState, action: Pass) -> list[Event]:
    _require_turn(state, action.seat)
    if state.phase != "upcard":
        raise IllegalActionError(
            "4 the upcard option: passing is only possible on the upcard", rule="4 upcard"
        )
    return [UpcardPassed(seat=action.seat)]


def _decide_draw(state: MatchState, action: Draw) -> list[Event]:
    _require_turn(state, action.seat)
    if action.source not in ("stock", "discard"):
        raise IllegalActionError('draw from "stock" or "discard"', rule="5 a normal turn")
    if state.phase == "discard":
        raise IllegalActionError(
            "5 a normal turn: you have drawn already; discard or knock", rule="5 a normal turn"
        )
    if state.phase == "upcard" and action.source == "stock":
        raise IllegalActionError(
            "4 the upcard option: take the upcard or pass; the stock is drawn only after "
            "both players have passed",
            rule="4 upcard",
        )
    if action.source == "discard":
        if state.must_draw_stock:
            raise IllegalActionError(
                "4 the upcard option: both players passed the upcard, so the non-dealer "
                "draws from the stock",
                rule="4 upcard",
            )
        if not state.discard_pile:
            raise IllegalActionError("the discard pile is empty", rule="5 a normal turn")
        card = state.discard_pile[-1]
    else:
        if len(state.stock) <= 2:
            raise IllegalActionError(
                "7 drawn hand: the last two stock cards are never drawn", rule="7 drawn hand"
            )
        card = state.stock[0]
    return [CardDrawn(seat=action.seat, source=action.source, card=card)]


def _require_discardable(state: MatchState, seat: int, card: str) -> None:
    card_index(card)
    if state.phase != "discard":
        raise IllegalActionError("5 a normal turn: draw a card first", rule="5 a normal turn")
    if card not in state.hands[seat]:
        raise InvalidCardError(f"{card} is not in your hand", rule="5 a normal turn")
    if state.ruleset.discard_restriction and card == state.drawn_from_discard:
        raise IllegalActionError(
            f"5 discard restriction: {card} was just taken from the discard pile and may not "
            "be discarded this turn",
            rule="5 discard restriction",
        )


def _decide_discard(state: MatchState, action: Discard) -> list[Event]:
    _require_turn(state, action.seat)
    _require_discardable(state, action.seat, action.card)
    events: list[Event] = [CardDiscarded(seat=action.seat, card=action.card)]
    if len(state.stock) <= 2:
        events.append(HandDrawn(hand_number=state.hand_number))
    return events


# --- knocking and scoring ---------------------------------------------------------------


def _decide_knock(state: MatchState, action: Knock) -> list[Event]:
    _require_turn(state, action.seat)
    _require_discardable(state, action.seat, action.card)
    seat, limit = action.seat, state.ruleset.knock_limit
    rest = [c for c in state.hands[seat] if c != action.card]
    defender_cards = state.hands[1 - seat]
    options: list[melds.Arrangement] = []
    if action.melds is not None:
        arrangement = melds.validate_arrangement(rest, action.melds)
    else:
        options = melds.min_arrangements(rest)
        arrangement = options[0]
    if arrangement.deadwood_value > limit:
        raise IllegalActionError(
            f"6 knocking: deadwood {arrangement.deadwood_value} exceeds the knock limit {limit}",
            rule="6 knocking",
        )
    gin = arrangement.deadwood_value == 0
    if options:
        arrangement, defence = _knocker_choice(options, defender_cards, gin)
    else:
        defence = _defence(arrangement, defender_cards, gin)
    kind, winner, points = score_hand(
        state.ruleset,
        knocker=seat,
        gin=gin,
        knocker_deadwood=arrangement.deadwood_value,
        defender_deadwood=defence.deadwood_value,
    )
    return [
        Knocked(
            seat=seat,
            discard=action.card,
            melds=[list(m) for m in arrangement.melds],
            deadwood=list(arrangement.deadwood),
            deadwood_value=arrangement.deadwood_value,
            gin=gin,
        ),
        DefenceLaidOut(
            seat=1 - seat,
            melds=[list(m) for m in defence.melds],
            layoffs=[[card, index] for card, index in defence.layoffs],
            deadwood=list(defence.deadwood),
            deadwood_value=defence.deadwood_value,
        ),
        *_score_events(
            state,
            hand_number=state.hand_number,
            kind=kind,
            knocker=seat,
            winner=winner,
            points=points,
            knocker_deadwood=arrangement.deadwood_value,
            defender_deadwood=defence.deadwood_value,
        ),
    ]


def _defence(
    arrangement: melds.Arrangement, defender_cards: Iterable[str], gin: bool
) -> melds.Defence:
    # No layoffs against gin (RULES 6): the defender only arranges their own melds.
    if gin:
        own = melds.best_arrangement(defender_cards)
        return melds.Defence(
            melds=own.melds, layoffs=(), deadwood=own.deadwood, deadwood_value=own.deadwood_value
        )
    return melds.best_defence(arrangement.melds, defender_cards)


def _knocker_choice(
    options: list[melds.Arrangement], defender_cards: Iterable[str], gin: bool
) -> tuple[melds.Arrangement, melds.Defence]:
    """RULES 6 Decision: among the minimal arrangements, the one leaving the defender the
    most deadwood after their best layoffs; ties go to the first in the solver's
    deterministic order."""
    defender_cards = tuple(defender_cards)
    best = None
    for arrangement in options:
        defence = _defence(arrangement, defender_cards, gin)
        if best is None or defence.deadwood_value > best[1].deadwood_value:
            best = (arrangement, defence)
        if gin:  # layoffs do not exist, every arrangement leaves the same deadwood
            break
    assert best is not None
    return best


def _score_events(
    state: MatchState,
    *,
    hand_number: int,
    kind: str,
    knocker: int,
    winner: int,
    points: int,
    knocker_deadwood: int,
    defender_deadwood: int,
) -> list[Event]:
    sheet, scored, won = scoresheet_win(
        state.scoresheet, seat=winner, points=points, ruleset=state.ruleset
    )
    events: list[Event] = [
        HandScored(
            hand_number=hand_number,
            kind=kind,
            knocker=knocker,
            winner=winner,
            points=points,
            knocker_deadwood=knocker_deadwood,
            defender_deadwood=defender_deadwood,
            games=scored,
        )
    ]
    return events + _game_end_events(sheet, won, winner, state.ruleset)


def _game_end_events(
    sheet: Scoresheet, won: list[int], winner: int, ruleset: Ruleset
) -> list[Event]:
    events: list[Event] = []
    for n in won:
        game = sheet.games[n - 1]
        events.append(
            GameWon(game=n, winner=winner, scores=list(game.scores), bonuses=list(game.bonuses))
        )
    match_won_by = match_winner(sheet, ruleset)
    if won and match_won_by is not None:
        events.append(MatchFinished(winner=match_won_by, reason="games"))
    return events


# --- table mode -------------------------------------------------------------------------


def _decide_record_hand(state: MatchState, action: RecordHand) -> list[Event]:
    _require_table(state)
    limit = state.ruleset.knock_limit
    k, d = action.knocker_deadwood, action.defender_deadwood
    if action.knocker not in (0, 1) or isinstance(action.knocker, bool):
        raise IllegalActionError("the knocker must be seat 0 or 1", rule="table mode")
    if not isinstance(action.gin, bool):
        raise IllegalActionError("gin must be true or false", rule="table mode")
    for name, value in (("knocker_deadwood", k), ("defender_deadwood", d)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise IllegalActionError(f"{name} must be a whole number >= 0", rule="2 deadwood")
    if k > limit:
        raise IllegalActionError(
            f"6 knocking: deadwood {k} exceeds the knock limit {limit}", rule="6 knocking"
        )
    if action.gin != (k == 0):
        raise IllegalActionError(
            "6 gin: a gin hand has knocker deadwood 0, and deadwood 0 is gin", rule="6 gin"
        )
    if d > MAX_DEADWOOD:
        raise IllegalActionError(
            f"2 deadwood: ten cards hold at most {MAX_DEADWOOD} points of deadwood, not {d}",
            rule="2 deadwood",
        )
    number = state.hand_number + 1
    kind, winner, points = score_hand(
        state.ruleset,
        knocker=action.knocker,
        gin=action.gin,
        knocker_deadwood=k,
        defender_deadwood=d,
    )
    recorded = HandRecorded(
        hand_number=number,
        knocker=action.knocker,
        gin=action.gin,
        knocker_deadwood=k,
        defender_deadwood=d,
    )
    return [
        recorded,
        *_score_events(
            state,
            hand_number=number,
            kind=kind,
            knocker=action.knocker,
            winner=winner,
            points=points,
            knocker_deadwood=k,
            defender_deadwood=d,
        ),
    ]


def _decide_record_drawn(state: MatchState, action: RecordDrawnHand) -> list[Event]:
    _require_table(state)
    return [HandDrawn(hand_number=state.hand_number + 1)]


def _require_table(state: MatchState) -> None:
    if state.mode != "table":
        raise IllegalActionError(
            "hands are recorded only in table mode; online hands are played", rule="table mode"
        )


# --- rulings ----------------------------------------------------------------------------


def _decide_void(state: MatchState, action: VoidHand) -> list[Event]:
    if not state.in_play:
        raise IllegalActionError("there is no hand in play to void", rule="rulings: void hand")
    return [HandVoided(hand_number=state.hand_number, reason=action.reason, by=action.by)]


def _decide_adjust(state: MatchState, action: AdjustScore) -> list[Event]:
    games = len(state.scoresheet.games)
    if action.seat not in (0, 1) or isinstance(action.seat, bool):
        raise IllegalActionError(f"there is no seat {action.seat!r}", rule="rulings: adjust")
    if not isinstance(action.game, int) or not 1 <= action.game <= games:
        raise IllegalActionError(f"game must be 1 to {games}", rule="rulings: adjust")
    if not isinstance(action.points, int) or isinstance(action.points, bool) or not action.points:
        raise IllegalActionError("points must be a non-zero whole number", rule="rulings: adjust")
    game = state.scoresheet.games[action.game - 1]
    if not game.open:
        raise IllegalActionError(
            f"game {action.game} has ended; its score can no longer be adjusted",
            rule="rulings: adjust",
        )
    if game.scores[action.seat] + action.points < 0:
        raise IllegalActionError("a score cannot become negative", rule="rulings: adjust")
    sheet = scoresheet_adjust(
        state.scoresheet, seat=action.seat, game=action.game, points=action.points
    )
    sheet, won = scoresheet_close_reached(sheet, seat=action.seat, ruleset=state.ruleset)
    adjusted = ScoreAdjusted(
        seat=action.seat,
        game=action.game,
        points=action.points,
        reason=action.reason,
        by=action.by,
    )
    return [adjusted, *_game_end_events(sheet, won, action.seat, state.ruleset)]


def _decide_forfeit(state: MatchState, action: Forfeit) -> list[Event]:
    winner = _seat(action.winner)
    return [
        MatchForfeited(winner=winner, reason=action.reason, by=action.by),
        MatchFinished(winner=winner, reason="forfeit"),
    ]


def _decide_resign(state: MatchState, action: Resign) -> list[Event]:
    seat = _seat(action.seat)
    return [PlayerResigned(seat=seat), MatchFinished(winner=1 - seat, reason="resigned")]


def _seat(value: object) -> int:
    if value not in (0, 1) or isinstance(value, bool):
        raise IllegalActionError(f"there is no seat {value!r}", rule="seats")
    return value  # type: ignore[return-value]


_HANDLERS = {
    Deal: _decide_deal,
    Pass: _decide_pass,
    Draw: _decide_draw,
    Discard: _decide_discard,
    Knock: _decide_knock,
    RecordHand: _decide_record_hand,
    RecordDrawnHand: _decide_record_drawn,
    VoidHand: _decide_void,
    AdjustScore: _decide_adjust,
    Forfeit: _decide_forfeit,
    Resign: _decide_resign,
}


# --- what a seat may do -----------------------------------------------------------------


def knock_options(state: MatchState, seat: int) -> list[str]:
    """Discards after which `seat` could knock (deadwood within the knock limit)."""
    if state.phase != "discard" or state.turn != seat:
        return []
    hand = state.hands[seat]
    return [
        card
        for card in hand
        if not (state.ruleset.discard_restriction and card == state.drawn_from_discard)
        and melds.min_deadwood([c for c in hand if c != card]) <= state.ruleset.knock_limit
    ]


def legal_actions(state: MatchState, seat: int) -> list[dict]:
    """Every legal action of `seat`, in the shapes `action_from_dict` accepts."""
    if state.status != "in_progress" or not state.in_play or state.turn != seat:
        return []
    if state.phase == "upcard":
        return [{"type": "draw", "source": "discard"}, {"type": "pass"}]
    if state.phase == "draw":
        out = [{"type": "draw", "source": "stock"}]
        if not state.must_draw_stock and state.discard_pile:
            out.append({"type": "draw", "source": "discard"})
        return out
    discards = [
        {"type": "discard", "card": c}
        for c in state.hands[seat]
        if not (state.ruleset.discard_restriction and c == state.drawn_from_discard)
    ]
    return discards + [{"type": "knock", "card": c} for c in knock_options(state, seat)]
