"""Property tests of corrections: after any correction or past void, the match is exactly
what recording the corrected sequence of hands from the start gives (hands beyond the
corrected end of the match excluded)."""

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine import (
    AdjustScore,
    IllegalActionError,
    Ruleset,
    VoidHand,
    event_from_dict,
    event_to_dict,
    event_type,
    replay,
    start_match,
    state_from_dict,
    state_to_dict,
)
from games.engine.events import MatchFinished, MatchReopened

from .helpers import (
    apply,
    correction,
    counted,
    outcome,
    record_action,
    recorded,
    scoring,
    started,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RULESETS = [
    Ruleset(),
    Ruleset(end_when_decided=True),
    Ruleset(games=1),
    Ruleset(game_target=60, box_bonus=25, game_bonus=100, shutout_doubles=True),
    Ruleset(knock_limit=5, gin_bonus=20, undercut_bonus=20, end_when_decided=True),
]
rulesets = st.sampled_from(RULESETS)
# Drawn (None) or (knocker, knocker deadwood, defender deadwood); knocker deadwood is
# clamped to the ruleset's knock limit when used.
entries = st.one_of(
    st.none(),
    st.tuples(st.integers(0, 1), st.integers(0, 10), st.integers(0, 98)),
    st.tuples(st.integers(0, 1), st.just(0), st.integers(40, 98)),  # big gins end games
    st.tuples(st.integers(0, 1), st.just(0), st.integers(40, 98)),
)
picks = st.integers(0, 10**6)
records = st.tuples(st.just("record"), entries)
corrections = st.tuples(st.just("correct"), picks, entries)
ops = st.lists(
    st.one_of(
        records,
        records,
        records,
        corrections,
        corrections,
        st.tuples(st.just("void"), picks),
        st.tuples(
            st.just("adjust"),
            st.integers(0, 1),
            st.integers(1, 3),
            st.sampled_from([-60, -25, -10, 15, 40, 90]),
        ),
    ),
    min_size=8,
    max_size=40,
)


def _fit(entry, ruleset):
    if entry is None:
        return None
    knocker, k, d = entry
    return (knocker, min(k, ruleset.knock_limit), d)


def _status_events_are_explicit(before, after, events, reason):
    """The events after the first say how the match's status changed, and nothing else."""
    extra = events[1:]
    event(f"{before.status} -> {after.status} ({reason})")
    if after.status == "finished":
        changed = before.status != "finished" or before.winner != after.winner
        assert extra == ([MatchFinished(winner=after.winner, reason="games")] if changed else [])
    elif before.status == "finished":
        assert extra == [MatchReopened(hand_number=events[0].hand_number, reason=reason)]
    else:
        assert extra == []


def _from_the_start(model, ruleset, first_dealer):
    """Record the model's sequence (hands not voided, adjustments) on a fresh match: the
    hands beyond its end and the adjustments it refuses are left out."""
    state = started(ruleset, first_dealer=first_dealer, mode="table")
    after_end, flags = 0, []
    for item in model:
        if item[0] == "hand":
            _, entry, voided = item
            if voided:
                continue
            if state.status == "finished":
                after_end += 1
                continue
            state, _ = apply(state, record_action(entry))
        else:
            if state.status == "finished":
                flags.append("after_end")
                continue
            try:
                state, _ = apply(state, item[1])
                flags.append(None)
            except IllegalActionError:
                flags.append("lapsed")
    return state, after_end, flags


def _equals_the_corrected_sequence(state, model, ruleset, first_dealer):
    expected, after_end, flags = _from_the_start(model, ruleset, first_dealer)
    assert outcome(state) == outcome(expected)
    assert counted(state) == [scoring(r) for r in expected.hand_results]
    marked = [r for r in state.hand_results if r.get("after_end")]
    assert len([r for r in marked if not r.get("voided")]) == after_end
    assert state.hand_results[len(state.hand_results) - len(marked) :] == tuple(marked)
    assert all(r.get("games", []) == [] for r in marked)
    adjustments = [r for r in state.rulings if r["type"] == "ScoreAdjusted"]
    assert [_flag(r) for r in adjustments] == flags
    event(f"adjustments lapsed: {'lapsed' in flags}; hands after the end: {bool(marked)}")
    return expected


def _flag(ruling):
    return "after_end" if ruling.get("after_end") else "lapsed" if ruling.get("lapsed") else None


@SETTINGS
@given(ruleset=rulesets, first_dealer=st.integers(0, 1), script=ops)
def test_any_corrections_and_voids_equal_recording_the_corrected_sequence(
    ruleset, first_dealer, script
):
    log = start_match(ruleset=ruleset, first_dealer=first_dealer, mode="table")
    state = replay(log)
    model = []  # ["hand", entry, voided] and ["adjust", action], in the order they happened
    for op in script:
        hands = [item for item in model if item[0] == "hand"]
        before = state
        if op[0] == "record":
            entry = _fit(op[1], ruleset)
            if state.status == "finished":
                with pytest.raises(IllegalActionError, match="over"):
                    apply(state, record_action(entry))
                continue
            state, events = apply(state, record_action(entry))
            model.append(["hand", entry, False])
        elif op[0] == "adjust":
            action = AdjustScore(seat=op[1], game=op[2], points=op[3], reason="r", by="td")
            try:
                state, events = apply(state, action)
            except IllegalActionError:
                continue
            model.append(["adjust", action])
        elif not hands:
            continue
        else:
            number = 1 + op[1] % len(hands)
            hand = hands[number - 1]
            if op[0] == "correct":
                entry = _fit(op[2], ruleset)
                action = correction(number, entry)
                refused = hand[2] or hand[1] == entry  # voided, or nothing to change
            else:
                action = VoidHand(hand_number=number, reason="misdeal", by="td")
                refused = hand[2]
            if refused:
                with pytest.raises(IllegalActionError):
                    apply(state, action)
                continue
            state, events = apply(state, action)
            reason = "correction" if op[0] == "correct" else "void"
            _status_events_are_explicit(before, state, events, reason)
            if op[0] == "correct":
                hand[1] = entry
            else:
                hand[2] = True
            _equals_the_corrected_sequence(state, model, ruleset, first_dealer)
        log += events

    expected = _equals_the_corrected_sequence(state, model, ruleset, first_dealer)
    # The events replay to the same state, through their stored form and through snapshots.
    stored = [(event_type(e), json.loads(json.dumps(event_to_dict(e)))) for e in log]
    assert replay(event_from_dict(t, d) for t, d in stored) == state
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state
    # And the match goes on from there as the corrected one does.
    if state.status == "in_progress":
        following = record_action((1, 0, 98))
        assert outcome(apply(state, following)[0]) == outcome(apply(expected, following)[0])


@SETTINGS
@given(
    ruleset=rulesets,
    first_dealer=st.integers(0, 1),
    sequence=st.lists(entries, min_size=1, max_size=20),
    which=picks,
    when=picks,
    new_entry=entries,
    void=st.booleans(),
)
def test_one_correction_before_or_after_the_end_equals_the_corrected_sequence(
    ruleset, first_dealer, sequence, which, when, new_entry, void
):
    """Record hands, correct (or void) one of them at some point, record the rest; the
    result is the corrected sequence recorded from the start."""
    sequence = [_fit(e, ruleset) for e in sequence]
    new_entry = _fit(new_entry, ruleset)
    state = started(ruleset, first_dealer=first_dealer, mode="table")
    made = 0
    target = None
    for entry in sequence:
        if made and target is None and made >= 1 + when % len(sequence):
            target = which % made
            state = _change(state, target, sequence, new_entry, void)
        if state.status == "finished":
            continue  # the recording goes on only if the match does
        state, _ = apply(state, record_action(entry))
        made += 1
    if target is None:  # the change comes after the last recording (often the match's end)
        target = which % made
        state = _change(state, target, sequence, new_entry, void)
    corrected = list(sequence[:made])
    if void:
        del corrected[target]
    elif sequence[target] != new_entry:
        corrected[target] = new_entry
    expected = recorded(corrected, ruleset, first_dealer=first_dealer)
    assert outcome(state) == outcome(expected)
    assert counted(state) == [scoring(r) for r in expected.hand_results]


def _change(state, index, sequence, new_entry, void):
    if void:
        return apply(state, VoidHand(hand_number=index + 1, reason="r", by="td"))[0]
    if sequence[index] == new_entry:
        with pytest.raises(IllegalActionError, match="already recorded like this"):
            apply(state, correction(index + 1, new_entry))
        return state
    return apply(state, correction(index + 1, new_entry))[0]


@SETTINGS
@given(
    ruleset=rulesets,
    first_dealer=st.integers(0, 1),
    sequence=st.lists(entries, min_size=4, max_size=20),
    which=picks,
    new_entry=st.tuples(st.integers(0, 1), st.just(0), st.integers(60, 98)),
)
def test_a_correction_undone_gives_back_the_match_hands_after_the_end_included(
    ruleset, first_dealer, sequence, which, new_entry
):
    """A big gin entered for an early hand often ends the match sooner: the hands after
    the new end no longer count. Correcting the hand back brings them all back."""
    sequence = [_fit(e, ruleset) for e in sequence]
    original = recorded(sequence, ruleset, first_dealer=first_dealer)
    index = which % len(original.hand_results)
    old_entry = sequence[index]
    if old_entry == new_entry:
        return
    state, _ = apply(original, correction(index + 1, new_entry))
    made = len(original.hand_results)
    changed = [*sequence[:index], new_entry, *sequence[index + 1 : made]]
    expected = recorded(changed, ruleset, first_dealer=first_dealer)
    assert outcome(state) == outcome(expected)
    assert counted(state) == [scoring(r) for r in expected.hand_results]
    after_end = made - len(expected.hand_results)
    assert [r["hand_number"] for r in state.hand_results if r.get("after_end")] == list(
        range(made - after_end + 1, made + 1)
    )
    event(f"hands after the new end: {after_end > 0}")

    back, events = apply(state, correction(index + 1, old_entry, reason="undone"))
    assert outcome(back) == outcome(original)
    assert [scoring(r) for r in back.hand_results] == [scoring(r) for r in original.hand_results]
    assert not any(r.get("after_end") for r in back.hand_results)
    assert [len(r.get("corrections", [])) for r in back.hand_results] == [
        2 if n == index else 0 for n in range(made)
    ]
