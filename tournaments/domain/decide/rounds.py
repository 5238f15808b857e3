"""Rounds: pairing the next, re-pairing one in play (afresh or by hand), its byes and its
end."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tournaments.domain.commands import PairRound, RepairRound
from tournaments.domain.decide.clock import check_early_start, deadline_from, iso
from tournaments.domain.decide.common import expect_version, round_in_play
from tournaments.domain.errors import TournamentConflictError, TournamentInputError
from tournaments.domain.events import (
    PairingEntry,
    ResultEntry,
    ResultRecorded,
    RoundCompleted,
    RoundPaired,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from tournaments.domain.evolve import evolve
from tournaments.domain.pairing import (
    active_players,
    double_elimination_wave,
    in_top_cut,
    knockout_round,
    ordered_tables,
    pairs_for_round,
    played_pairs,
    round_count,
    top_cut_qualifiers,
)
from tournaments.domain.seeding import bracket_of
from tournaments.domain.state import (
    COMPLETED,
    MATCH_VERSION_WHEN_MADE,
    TournamentState,
    round_start,
)
from tournaments.pairing import Pair
from tournaments.pairing.double_elimination import BracketResultError
from tournaments.pairing.hand_pairings import (
    HandPairingConflictError,
    HandPairingError,
    check_hand_pairings,
)
from tournaments.pairing.top_cut import TopCutTooLargeError


def require_next_round(state: TournamentState, number: int) -> None:
    """Round `number` may begin: it is the next one and the one before it is complete
    (pairing it, or importing it as played from an exchange file)."""
    if number != state.current_round + 1:
        raise TournamentConflictError(
            "the next round is %(round)s",
            extra={"reason": "round_not_next"},
            params={"round": state.current_round + 1},
        )
    previous = state.rounds.get(number - 1)
    if previous is not None and previous.status != COMPLETED:
        raise TournamentConflictError(
            "round %(round)s is still in play", code="round_in_play", params={"round": number - 1}
        )


def pair_round(state: TournamentState, command: PairRound) -> list[TournamentEvent]:
    number = command.number
    if number in state.rounds or state.finished or number <= state.current_round:
        return []  # already paired: a repeated job
    require_next_round(state, number)
    scheduled = round_start(state, number)
    check_early_start(state, command, scheduled)
    if command.by_scheduler and (
        (scheduled is None and number == 1) or (scheduled and scheduled > command.now)
    ):
        return []  # the scheduler waits for the start time (round 1: for the organiser)
    events: list[TournamentEvent] = []
    seeded = active_players(state, command.ratings)
    if number == 1:
        if len(seeded) < 2:
            raise TournamentConflictError("at least two players must be checked in", code="too_few")
        started = TournamentStarted(seeds=tuple(seeded), rounds=round_count(state, len(seeded)))
        events.append(started)
        state = evolve(state, started)
    if state.rounds_planned and number > state.rounds_planned:
        return []
    cut: tuple[int, ...] = ()
    if in_top_cut(state, number) and number == (state.swiss_rounds or 0) + 1:
        try:
            cut = tuple(top_cut_qualifiers(state, command.ratings, command.lots))
        except TopCutTooLargeError as exc:
            raise TournamentConflictError(exc.template, code="too_few", params=exc.params) from exc
    if number > 1 and bracket_decided(state):
        # Withdrawals between rounds decided the bracket (its last matches walkovers): it is
        # over, not stuck with nobody to pair.
        return events + [TournamentFinished(rounds=number - 1)]
    entries, met = round_entries(state, number, seeded, cut)
    if not entries:
        raise TournamentConflictError("nobody is left to pair", code="too_few")
    deadline = deadline_from(state, command.now, None)  # the clock starts at the pairing
    paired = RoundPaired(
        round=number,
        pairings=with_matches(state, entries, command.match_ids),
        deadline=iso(deadline),
        forbidden_met=met,
        top_cut=cut,
        lots=tuple(command.lots) if cut else (),
    )
    return events + with_byes(evolve(state, paired), paired)


def round_entries(
    state: TournamentState, number: int, seeded: list[int], cut: tuple[int, ...] = ()
) -> tuple[tuple[PairingEntry, ...], tuple[tuple[int, int], ...]]:
    """The round's tables (a double elimination's with their bracket slots) and the
    forbidden pairs it could not keep apart."""
    if state.format == "knockout" or in_top_cut(state, number):
        slotted, met = knockout_round(state, number, seeded, cut)
        entries = tuple(
            PairingEntry(table=n, player1=pair.first, player2=pair.second, slot=slot)
            for n, (slot, pair) in enumerate(slotted, start=1)
        )
        return entries, met
    if state.format != "double_elimination":
        pairs, met = pairs_for_round(state, number, seeded)
        return pairing_entries(state, pairs), met
    try:
        pairs, slots, met = double_elimination_wave(state)
    except BracketResultError as exc:
        raise TournamentConflictError(
            "the bracket cannot take the results recorded: %(problem)s",
            extra={"reason": "bracket_inconsistent"},
            params={"problem": exc},
        ) from exc
    entries = tuple(
        PairingEntry(table=n, player1=pair.first, player2=pair.second, slot=slot)
        for n, (pair, slot) in enumerate(zip(pairs, slots, strict=True), start=1)
    )
    return entries, met if number == 1 else ()


def pairing_entries(
    state: TournamentState, pairs: list[Pair], number: int = 0
) -> tuple[PairingEntry, ...]:
    return tuple(
        PairingEntry(table=n, player1=pair.first, player2=pair.second)
        for n, pair in enumerate(ordered_tables(state, pairs, number), start=1)
    )


def with_matches(
    state: TournamentState, entries: tuple[PairingEntry, ...], match_ids: tuple[str, ...]
) -> tuple[PairingEntry, ...]:
    """Each table's match named by the next of `match_ids` (made by the service before the
    decision; a bye has no match), at the version the games side gives a match it has just
    made for a pairing. No ids: the tables name no match (a decision whose matches nobody
    makes: the domain's own tests, a simulation)."""
    if not match_ids:
        return entries
    ids = iter(match_ids)
    version = MATCH_VERSION_WHEN_MADE.get(state.play_mode, 0)
    named = []
    for entry in entries:
        if entry.player2 is None:
            named.append(entry)
            continue
        match_id = next(ids, None)
        if match_id is None:  # the service's mistake, not the organiser's: a bug
            raise ValueError(f"{len(match_ids)} match ids for more tables")
        named.append(replace(entry, match=match_id, match_version=version))
    return tuple(named)


def with_byes(state: TournamentState, paired: RoundPaired) -> list[TournamentEvent]:
    """The pairing, each bye's result (a win), and the round's end if nobody plays in it
    (withdrawals left a knockout final with one finalist)."""
    events: list[TournamentEvent] = [paired]
    for p in paired.pairings:
        if p.player2 is None:
            bye = ResultRecorded(
                result=ResultEntry(
                    round=paired.round,
                    table=p.table,
                    player1=p.player1,
                    player2=None,
                    winner=p.player1,
                    result="bye",
                )  # fmt: skip
            )
            events.append(bye)
            state = evolve(state, bye)
    if not paired.repaired and all(p.player2 is None for p in paired.pairings):
        events += round_end(state, paired.round)
    return events


def round_end(state: TournamentState, number: int) -> list[TournamentEvent]:
    """RoundCompleted, and TournamentFinished when it was the last round."""
    events: list[TournamentEvent] = [RoundCompleted(round=number)]
    last = state.rounds_planned is not None and number >= state.rounds_planned
    if state.format == "double_elimination":
        last = bracket_decided(state)
    if last or (state.format == "knockout" and len(state.rounds[number].tables) == 1):
        events.append(TournamentFinished(rounds=number))
    return events


def bracket_decided(state: TournamentState) -> bool:
    """A double elimination whose bracket has its champion (by play or by walkovers)."""
    if state.format != "double_elimination" or not state.started:
        return False
    try:
        return bracket_of(state).over
    except BracketResultError:
        return False  # a correction the bracket cannot take: the organiser re-pairs


def repair_round(state: TournamentState, command: RepairRound) -> list[TournamentEvent]:
    round_ = round_in_play(state, command.number, "only a round in play can be re-paired")
    expect_version(state, command.expected_version)
    if command.started:
        raise TournamentConflictError("a match of this round has started", code="round_started")
    seeded = active_players(state)
    met: tuple[tuple[int, int], ...] = ()
    confirmed: tuple[dict[str, Any], ...] = ()
    if command.pairs is None:
        entries, met = round_entries(state, command.number, seeded, state.cut_seeds)
    elif state.format == "double_elimination":
        raise TournamentConflictError(
            "a double elimination's bracket is drawn from the seeds: it cannot be set by hand",
            extra={"reason": "bracket_fixed"},
        )
    else:
        pairs, confirmed = hand_pairs(state, command, seeded)
        entries = pairing_entries(state, pairs)
    paired = RoundPaired(
        round=command.number,
        pairings=with_matches(state, entries, command.match_ids),
        deadline=iso(deadline_from(state, command.now, round_)),
        repaired=True,
        replaced=tuple(t.match for t in round_.tables if t.match is not None),
        by_hand=command.pairs is not None,
        forbidden_met=met,
        confirmed=confirmed,
    )
    return with_byes(evolve(state, paired), paired)


def hand_pairs(
    state: TournamentState, command: RepairRound, seeded: list[int]
) -> tuple[list[Pair], tuple[dict[str, Any], ...]]:
    """The organiser's pairs, checked (tournaments.pairing.hand_pairings): everyone active
    once, at most one bye; a rematch or a forbidden pair only when confirmed."""
    assert command.pairs is not None
    try:
        hand = check_hand_pairings(
            field=seeded,
            pairs=[list(p) for p in command.pairs],
            played=played_pairs(state, before=command.number),
            forbidden=state.forbidden,
            confirm=command.confirm,
        )
    except HandPairingError as exc:
        message = "the pairs must name every active player exactly once, at most one bye"
        raise TournamentInputError(
            message, code="pairs", extra={"problem": exc.code, "players": list(exc.players)}
        ) from exc
    except HandPairingConflictError as exc:
        conflicts = [{"reason": c.reason, "players": sorted(c.pair)} for c in exc.conflicts]
        raise TournamentConflictError(
            "these pairs repeat an earlier pairing or break a forbidden pair: send them again"
            " with confirm to keep them",
            extra={"reason": exc.reason, "conflicts": conflicts},
        ) from exc
    confirmed = tuple({"reason": c.reason, "players": sorted(c.pair)} for c in hand.conflicts)
    return list(hand.pairs), confirmed
