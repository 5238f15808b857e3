"""Dispute events in the engine: checked by the dispute functions, folded by evolve as
records, never touching the hands or the scoresheet."""

import pytest

from games.engine.disputes import (
    DisputeClosedError,
    DisputeError,
    dispute_comment,
    dispute_open,
    dispute_resolve,
)
from games.engine.events import event_from_dict, event_to_dict, event_type
from games.engine.match import evolve, initial_state, start_match
from games.engine.ruleset import Ruleset
from games.engine.state import state_from_dict, state_to_dict


def _started():
    state = initial_state()
    for event in start_match(ruleset=Ruleset(), first_dealer=0, mode="table"):
        state = evolve(state, event)
    return state


def _apply(state, events):
    for event in events:
        # through the stored form, as a replay does
        state = evolve(state, event_from_dict(event_type(event), event_to_dict(event)))
    return state


def test_open_comment_resolve_are_records_only():
    state = _started()
    opened = _apply(state, dispute_open(state, seat=1, hand_number=None, statement=" unfair "))
    assert opened.disputes[0]["statement"] == "unfair"
    assert opened.scoresheet == state.scoresheet and opened.phase == state.phase
    noted = _apply(opened, dispute_comment(opened, dispute=1, comment="why?", by="Olive"))
    done = _apply(
        noted, dispute_resolve(noted, dispute=1, outcome="dismissed", reason="no", by="O")
    )
    assert done.disputes[0]["comments"] == [{"comment": "why?", "by": "Olive"}]
    assert done.disputes[0]["outcome"] == "dismissed"
    assert opened.disputes[0]["outcome"] is None  # the earlier state is untouched
    assert state_from_dict(state_to_dict(done)) == done
    with pytest.raises(DisputeClosedError):
        dispute_comment(done, dispute=1, comment="again", by="x")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seat": 2, "hand_number": None, "statement": "x"},
        {"seat": 0, "hand_number": 1, "statement": "x"},  # no hand played yet
        {"seat": 0, "hand_number": None, "statement": "  "},
        {"seat": 0, "hand_number": None, "statement": "x" * 2001},
    ],
)
def test_bad_disputes_are_refused(kwargs):
    with pytest.raises(DisputeError):
        dispute_open(_started(), **kwargs)


def test_an_unknown_dispute_or_outcome_is_refused():
    state = _started()
    with pytest.raises(DisputeError):
        dispute_resolve(state, dispute=1, outcome="dismissed", reason="r", by="o")
    opened = _apply(state, dispute_open(state, seat=0, hand_number=None, statement="s"))
    with pytest.raises(DisputeError):
        dispute_resolve(opened, dispute=1, outcome="maybe", reason="r", by="o")


def test_a_snapshot_from_before_disputes_still_loads():
    data = state_to_dict(_started())
    del data["disputes"]
    assert state_from_dict(data).disputes == ()
