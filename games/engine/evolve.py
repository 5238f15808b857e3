"""`evolve(state, event) -> state`: applies one event, with no rule checks (those were made
by `decide` when the event was produced). A total match over the event types."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from games.engine.cards import FULL_DECK
from games.engine.corrections import hand_corrected, past_hand_voided
from games.engine.disputes import disputes_after
from games.engine.events import (
    CardDiscarded,
    CardDrawn,
    DefenceLaidOut,
    DisputeCommented,
    DisputeOpened,
    DisputeResolved,
    Event,
    GameWon,
    HandCorrected,
    HandDealt,
    HandDrawn,
    HandRecorded,
    HandScored,
    HandVoided,
    Knocked,
    MatchCancelled,
    MatchFinished,
    MatchForfeited,
    MatchReopened,
    MatchStarted,
    PlayerResigned,
    ScoreAdjusted,
    UpcardPassed,
)
from games.engine.ruleset import Ruleset
from games.engine.scoresheet import (
    scoresheet_add,
    scoresheet_adjust,
    scoresheet_close,
    scoresheet_new,
)
from games.engine.state import Hands, MatchState, _jsonable

_FIELD_NAMES = frozenset(f.name for f in fields(MatchState))
_new = object.__new__


def _replace(state: MatchState, **changes: Any) -> MatchState:
    """`dataclasses.replace` for MatchState without re-running its generated __init__
    over all 25 fields (that was half of a replay's time): a copy of the field values
    with `changes` applied. MatchState has neither __post_init__ nor __slots__."""
    if not changes.keys() <= _FIELD_NAMES:
        raise TypeError(f"not MatchState fields: {sorted(changes.keys() - _FIELD_NAMES)}")
    new = _new(MatchState)
    attrs = new.__dict__
    attrs.update(state.__dict__)
    attrs.update(changes)
    return new


def evolve(state: MatchState, event: Event) -> MatchState:
    match event:
        case MatchStarted():
            ruleset = Ruleset.from_dict(event.ruleset)
            return _replace(
                state,
                ruleset=ruleset,
                mode=event.mode,
                status="in_progress",
                phase="awaiting_deal" if event.mode == "online" else "awaiting_record",
                first_dealer=event.first_dealer,
                dealer=event.first_dealer,
                scoresheet=scoresheet_new(ruleset),
            )
        case HandDealt():
            return _dealt(state, event)
        case UpcardPassed():
            passes = state.upcard_passes + 1
            if passes == 1:
                return _replace(state, upcard_passes=1, turn=state.dealer)
            return _replace(
                state, upcard_passes=2, phase="draw", turn=state.non_dealer, must_draw_stock=True
            )
        case CardDrawn():
            return _drawn(state, event)
        case CardDiscarded():
            return _replace(
                state,
                hands=_without(state.hands, event.seat, event.card),
                discard_pile=(*state.discard_pile, event.card),
                phase="draw",
                turn=1 - event.seat,
                drawn_from_discard=None,
                must_draw_stock=False,
            )
        case Knocked():
            return _replace(
                state,
                hands=_without(state.hands, event.seat, event.discard),
                discard_pile=(*state.discard_pile, event.discard),
                phase="knocked",
                turn=None,
                knock=_record(_data(event)),
            )
        case DefenceLaidOut():
            return _replace(state, defence=_record(_data(event)))
        case HandScored():
            record = {**hand_record(state, _data(event)), "kind": event.kind}
            return _hand_over(
                _replace(
                    state,
                    scoresheet=scoresheet_add(
                        state.scoresheet, seat=event.winner, points=event.points, games=event.games
                    ),
                    dealer=event.winner,
                ),
                record,
            )
        case HandRecorded():
            return _replace(state, hand_number=event.hand_number, knock=_record(_data(event)))
        case HandDrawn():
            number = event.hand_number
            record = {**hand_record(_replace(state, hand_number=number), {}), "kind": "drawn"}
            return _hand_over(_replace(state, hand_number=number), record)
        case HandVoided() if not (state.in_play and event.hand_number == state.hand_number):
            # A finished hand voided: the match is re-derived without it.
            state = past_hand_voided(state, event)
            return _replace(state, rulings=(*state.rulings, _ruling(event)))
        case HandVoided():
            record = {
                **hand_record(state, {"reason": event.reason, "by": event.by}),
                "kind": "voided",
            }
            state = _replace(state, rulings=(*state.rulings, _ruling(event)))
            return _hand_over(state, record)
        case HandCorrected():
            state = hand_corrected(state, event)
            return _replace(state, rulings=(*state.rulings, _ruling(event)))
        case GameWon():
            return _replace(
                state,
                scoresheet=scoresheet_close(
                    state.scoresheet, game=event.game, winner=event.winner, bonuses=event.bonuses
                ),
            )
        case ScoreAdjusted():
            return _replace(
                state,
                scoresheet=scoresheet_adjust(
                    state.scoresheet, seat=event.seat, game=event.game, points=event.points
                ),
                # Where it happened, so that a refold (corrections) replays it there: after
                # the records of the hands finished so far (one per hand; the hand in play,
                # if any, has none yet).
                rulings=(
                    *state.rulings,
                    {**_ruling(event), "after_hands": state.hand_number - int(state.in_play)},
                ),
            )
        case MatchForfeited() | PlayerResigned():
            return _replace(state, rulings=(*state.rulings, _ruling(event)))
        case MatchFinished():
            return _replace(
                state,
                status="finished",
                phase="finished",
                turn=None,
                winner=event.winner,
                finish_reason=event.reason,
            )
        case MatchReopened():
            # The HandCorrected / HandVoided before it has refolded the state to this
            # already; applied again, it changes nothing.
            return _replace(
                state,
                status="in_progress",
                phase="awaiting_deal" if state.mode == "online" else "awaiting_record",
                turn=None,
                winner=None,
                finish_reason=None,
            )
        case MatchCancelled():
            return _replace(
                state,
                status="finished",
                phase="finished",
                turn=None,
                winner=None,
                finish_reason="cancelled",
                rulings=(*state.rulings, _ruling(event)),
            )
        case DisputeOpened() | DisputeCommented() | DisputeResolved():
            return _replace(state, disputes=disputes_after(state.disputes, event))
    raise TypeError(f"not an event: {event!r}")


def _record(value: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = _jsonable(value)
    return out


def _data(event: Event) -> dict[str, Any]:
    return {k: getattr(event, k) for k in event.__dataclass_fields__}


def _ruling(event: Event) -> dict[str, Any]:
    return _record({"type": type(event).__name__, **_data(event)})


def _without(hands: Hands, seat: int, card: str) -> Hands:
    new = tuple(c for c in hands[seat] if c != card)
    return (new, hands[1]) if seat == 0 else (hands[0], new)


# cards.sort_cards' order (suit then rank) without its per-card validation: evolve applies
# events `decide` already checked.
_ORDER = {code: i for i, code in enumerate(FULL_DECK)}.__getitem__


def _sorted(cards: Any) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_ORDER))


def _with(hands: Hands, seat: int, card: str) -> Hands:
    new = _sorted((*hands[seat], card))
    return (new, hands[1]) if seat == 0 else (hands[0], new)


def _dealt(state: MatchState, event: HandDealt) -> MatchState:
    deck = tuple(event.deck)
    dealer = event.dealer
    # RULES 3 Decision: even positions 0..18 to the non-dealer, odd 1..19 to the dealer.
    first, second = _sorted(deck[0:20:2]), _sorted(deck[1:20:2])
    hands = (second, first) if dealer == 0 else (first, second)
    return _replace(
        state,
        phase="upcard",
        hand_number=event.hand_number,
        dealer=dealer,
        turn=1 - dealer,
        hands=hands,
        stock=deck[21:],
        discard_pile=(deck[20],),
        deck=deck,
        salt=event.salt,
        commitment=event.commitment,
        upcard_passes=0,
        must_draw_stock=False,
        drawn_from_discard=None,
        picked_up=(),
        knock=None,
        defence=None,
    )


def _drawn(state: MatchState, event: CardDrawn) -> MatchState:
    if event.source == "stock":
        stock, pile = state.stock[1:], state.discard_pile
        taken, picked = None, state.picked_up
    else:
        stock, pile = state.stock, state.discard_pile[:-1]
        taken, picked = event.card, (*state.picked_up, (event.seat, event.card))
    return _replace(
        state,
        hands=_with(state.hands, event.seat, event.card),
        stock=stock,
        discard_pile=pile,
        phase="discard",
        drawn_from_discard=taken,
        picked_up=picked,
        must_draw_stock=False,
    )


def hand_record(state: MatchState, data: dict[str, Any]) -> dict[str, Any]:
    """What is kept of a finished hand; hidden cards are revealed here, once it is over."""
    record: dict[str, Any] = {
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        **_record(data),
    }
    if state.mode == "online":
        # The JSON form of the cards, built directly: flat tuples of codes become lists.
        record.update(
            deck=list(state.deck),
            salt=state.salt,
            commitment=state.commitment,
            hands=[list(state.hands[0]), list(state.hands[1])],
            stock=list(state.stock),
            discard_pile=list(state.discard_pile),
            # Already in JSON form (made by _record when the events were applied) and,
            # like everything in a state, never changed in place: shared, not copied.
            knock=state.knock,
            defence=state.defence,
        )
    else:
        record["recorded"] = True
    return record


def _hand_over(state: MatchState, record: dict[str, Any]) -> MatchState:
    """Back to waiting for the next deal (or record); the table is cleared."""
    return _replace(
        state,
        phase="awaiting_deal" if state.mode == "online" else "awaiting_record",
        turn=None,
        hands=((), ()),
        stock=(),
        discard_pile=(),
        deck=(),
        salt="",
        commitment="",
        upcard_passes=0,
        must_draw_stock=False,
        drawn_from_discard=None,
        picked_up=(),
        knock=None,
        defence=None,
        hand_results=(*state.hand_results, record),
    )
