"""`decide(state, command) -> events`: every rule of a tournament's life in one place.

It raises a named error (tournaments.domain.errors) for a command the tournament refuses,
and returns no events for one that would change nothing (a repeated job: pairing a round
already paired, recording a result already recorded). It never reads a database or a
clock: what it needs from outside comes in the command."""

from __future__ import annotations

from typing import Any

from tournaments.domain.commands import (
    AllowPair,
    ChangeSettings,
    CheckIn,
    ForbidPair,
    MoveDeadline,
    PairRound,
    RecordResult,
    Register,
    RepairRound,
    RuleResult,
    TournamentCommand,
    UndoCheckIn,
    Withdraw,
    WithdrawResult,
)
from tournaments.domain.errors import (
    SettingFixedError,
    TournamentConflictError,
    TournamentInputError,
)
from tournaments.domain.events import (
    ForbiddenPairAdded,
    ForbiddenPairRemoved,
    PairingEntry,
    PlayerCheckedIn,
    PlayerCheckInUndone,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultCorrected,
    ResultEntry,
    ResultRecorded,
    ResultRuled,
    RoundCompleted,
    RoundDeadlineMoved,
    RoundPaired,
    SettingsChanged,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
    result_to_data,
)
from tournaments.domain.pairing import (
    active_players,
    bracket_of,
    double_elimination_wave,
    in_top_cut,
    ordered_tables,
    pairs_for_round,
    played_pairs,
    round_count,
    top_cut_pairs,
    top_cut_qualifiers,
    without_withdrawn,
)
from tournaments.domain.state import (
    CHECKED_IN,
    COMPLETED,
    FINISHED,
    IN_PROGRESS,
    PAIRED,
    WITHDRAWN,
    RoundState,
    Table,
    TournamentState,
    evolve,
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

# What an organiser may change, and what is fixed once the tournament has started (the
# pairings and matches already made were made under it).
SETTINGS_MUTABLE = (
    "name",
    "is_public",
    "starts_at",
    "round_interval",
    "round_duration",
    "turn_time",
    "dispute_window",
    "rounds_planned",
    "tiebreaks",
    "time_zone",
    "language",
)
SETTINGS_FIXED_AFTER_START = ("ruleset", "format", "play_mode", "check_in_required")


def decide(state: TournamentState, command: TournamentCommand) -> list[TournamentEvent]:
    match command:
        case Register():
            return _register(state, command)
        case CheckIn():
            return _check_in(state, command)
        case UndoCheckIn():
            return _undo_check_in(state, command)
        case Withdraw():
            entry = _entry(state, command.player)
            return [] if entry.status == WITHDRAWN else [PlayerWithdrawn(player=command.player)]
        case PairRound():
            return _pair(state, command)
        case RepairRound():
            return _repair(state, command)
        case ForbidPair():
            return _forbid(state, command)
        case AllowPair():
            pair = _pair_key(state, command.players)
            return [ForbiddenPairRemoved(players=pair)] if pair in state.forbidden else []
        case RecordResult():
            return _record(state, command)
        case WithdrawResult():
            return _withdraw_result(state, command)
        case RuleResult():
            return _rule(state, command)
        case MoveDeadline():
            _round_in_play(state, command.round, "only a round in play has a deadline to move")
            previous = state.rounds[command.round].deadline
            return [
                RoundDeadlineMoved(
                    round=command.round,
                    deadline=command.deadline.isoformat() if command.deadline else None,
                    previous=previous.isoformat() if previous else None,
                )
            ]
        case ChangeSettings():
            _expect_version(state, command.expected_version)
            changes = decide_settings_change(state, current=command.current, wanted=command.wanted)
            return [SettingsChanged(changes=changes)] if changes else []
    raise TypeError(f"not a tournament command: {command!r}")


# --- registrations --------------------------------------------------------------------------


def _not_finished(state: TournamentState) -> None:
    if state.finished:
        raise TournamentConflictError("the tournament has finished", code="tournament_finished")


def _register(state: TournamentState, command: Register) -> list[TournamentEvent]:
    _not_finished(state)
    late = state.status == IN_PROGRESS
    if late and state.format != "swiss":
        raise TournamentConflictError(
            "late entry is only possible in a Swiss tournament", code="late_entry_closed"
        )
    if command.player in state.entries:
        raise TournamentConflictError("the player is already registered", code="already_registered")
    return [PlayerRegistered(player=command.player, late=late)]


def _entry(state: TournamentState, player: int):  # noqa: ANN202 - an Entry
    entry = state.entries.get(player)
    if entry is None:
        raise TournamentConflictError("the player is not registered", code="not_registered")
    return entry


def _check_in(state: TournamentState, command: CheckIn) -> list[TournamentEvent]:
    _not_finished(state)
    entry = _entry(state, command.player)
    if entry.status == WITHDRAWN:
        raise TournamentConflictError("the player has withdrawn", code="withdrawn")
    if entry.status == CHECKED_IN:
        return []
    return [PlayerCheckedIn(player=command.player)]


def _undo_check_in(state: TournamentState, command: UndoCheckIn) -> list[TournamentEvent]:
    """Only before the player's first pairing: once paired, they withdraw instead."""
    _not_finished(state)
    entry = _entry(state, command.player)
    if entry.status == WITHDRAWN:
        raise TournamentConflictError("the player has withdrawn", code="withdrawn")
    if entry.status != CHECKED_IN:
        return []
    paired = any(
        command.player in (t.player1, t.player2) for r in state.rounds.values() for t in r.tables
    )
    if paired:
        raise TournamentConflictError(
            "the player has been paired: withdraw them instead", code="already_paired"
        )
    return [PlayerCheckInUndone(player=command.player)]


# --- rounds ---------------------------------------------------------------------------------


def _pair(state: TournamentState, command: PairRound) -> list[TournamentEvent]:
    number = command.number
    if number in state.rounds or state.finished or number <= state.current_round:
        return []  # already paired: a repeated job
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
    scheduled = round_start(state, number)
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
            raise TournamentConflictError(str(exc), code="too_few") from exc
    entries, met = _round_entries(state, number, seeded, cut)
    if not entries:
        raise TournamentConflictError("nobody is left to pair", code="too_few")
    deadline = command.now + state.round_duration if state.round_duration is not None else None
    paired = RoundPaired(
        round=number,
        pairings=entries,
        deadline=deadline.isoformat() if deadline else None,
        forbidden_met=met,
        top_cut=cut,
        lots=tuple(command.lots) if cut else (),
    )
    return events + _with_byes(evolve(state, paired), paired)


def _round_entries(
    state: TournamentState, number: int, seeded: list[int], cut: tuple[int, ...] = ()
) -> tuple[tuple[PairingEntry, ...], tuple[tuple[int, int], ...]]:
    """The round's tables (a double elimination's with their bracket slots) and the
    forbidden pairs it could not keep apart."""
    if in_top_cut(state, number):
        pairs = top_cut_pairs(state, number, cut or state.cut_seeds)
        active = set(seeded)
        return _entries(state, without_withdrawn(pairs, active), number), ()
    if state.format != "double_elimination":
        pairs, met = pairs_for_round(state, number, seeded)
        return _entries(state, pairs), met
    try:
        pairs, slots, met = double_elimination_wave(state)
    except BracketResultError as exc:
        raise TournamentConflictError(
            f"the bracket cannot take the results recorded: {exc}",
            extra={"reason": "bracket_inconsistent"},
        ) from exc
    entries = tuple(
        PairingEntry(table=n, player1=pair.first, player2=pair.second, slot=slot)
        for n, (pair, slot) in enumerate(zip(pairs, slots, strict=True), start=1)
    )
    return entries, met if number == 1 else ()


def _entries(
    state: TournamentState, pairs: list[Pair], number: int = 0
) -> tuple[PairingEntry, ...]:
    return tuple(
        PairingEntry(table=n, player1=pair.first, player2=pair.second)
        for n, pair in enumerate(ordered_tables(state, pairs, number), start=1)
    )


def _with_byes(state: TournamentState, paired: RoundPaired) -> list[TournamentEvent]:
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
        events += _round_end(state, paired.round)
    return events


def _round_end(state: TournamentState, number: int) -> list[TournamentEvent]:
    """RoundCompleted, and TournamentFinished when it was the last round."""
    events: list[TournamentEvent] = [RoundCompleted(round=number)]
    last = state.rounds_planned is not None and number >= state.rounds_planned
    if state.format == "double_elimination":
        try:
            last = bracket_of(state).over
        except BracketResultError:
            last = False  # a correction the bracket cannot take: the organiser re-pairs
    if last or (state.format == "knockout" and len(state.rounds[number].tables) == 1):
        events.append(TournamentFinished(rounds=number))
    return events


def _round_in_play(state: TournamentState, number: int, message: str) -> RoundState:
    round_ = state.rounds.get(number)
    if round_ is None or round_.status != PAIRED:
        raise TournamentConflictError(message, extra={"reason": "round_not_in_play"})
    return round_


def _expect_version(state: TournamentState, expected: int | None) -> None:
    if expected is not None and expected != state.version:
        raise TournamentConflictError(
            f"the tournament is at version {state.version}, not {expected}",
            code="version_conflict",
            extra={"current_version": state.version},
        )


def _repair(state: TournamentState, command: RepairRound) -> list[TournamentEvent]:
    round_ = _round_in_play(state, command.number, "only a round in play can be re-paired")
    _expect_version(state, command.expected_version)
    if command.started:
        raise TournamentConflictError("a match of this round has started", code="round_started")
    seeded = active_players(state)
    met: tuple[tuple[int, int], ...] = ()
    confirmed: tuple[dict[str, Any], ...] = ()
    if command.pairs is None:
        entries, met = _round_entries(state, command.number, seeded, state.cut_seeds)
    elif state.format == "double_elimination":
        raise TournamentConflictError(
            "a double elimination's bracket is drawn from the seeds: it cannot be set by hand",
            extra={"reason": "bracket_fixed"},
        )
    else:
        pairs, confirmed = _hand_pairs(state, command, seeded)
        entries = _entries(state, pairs)
    paired = RoundPaired(
        round=command.number,
        pairings=entries,
        deadline=round_.deadline.isoformat() if round_.deadline else None,
        repaired=True,
        replaced=tuple(t.match for t in round_.tables if t.match is not None),
        by_hand=command.pairs is not None,
        forbidden_met=met,
        confirmed=confirmed,
    )
    return _with_byes(evolve(state, paired), paired)


def _hand_pairs(
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


def _pair_key(state: TournamentState, players: tuple[int, int]) -> tuple[int, int]:
    a, b = sorted(players)
    if a == b:
        raise TournamentInputError("a forbidden pair names two different players", code="pair")
    return a, b


def _forbid(state: TournamentState, command: ForbidPair) -> list[TournamentEvent]:
    _not_finished(state)
    pair = _pair_key(state, command.players)
    if state.format == "round_robin":
        raise TournamentConflictError(
            "in a round robin everyone meets everyone: no pair can be kept apart",
            extra={"reason": "round_robin"},
        )
    unknown = [p for p in pair if p not in state.entries]
    if unknown:
        raise TournamentInputError(
            "both players must be entered in the tournament",
            code="pair",
            extra={"fields": {"players": [f"{unknown} not entered"]}},
        )
    return [] if pair in state.forbidden else [ForbiddenPairAdded(players=pair)]


# --- results --------------------------------------------------------------------------------


def _table(state: TournamentState, number: int, table: int) -> Table | None:
    round_ = state.rounds.get(number)
    return round_.table(table) if round_ else None


def _later_round_note(state: TournamentState, number: int, started: bool) -> dict[str, Any]:
    """What a corrected result of round `number` means for the round after it: not paired
    yet (its pairing will use the corrected standings), paired but not started (the
    organiser may re-pair it), or started (the pairings stand: arbiters' practice)."""
    if number + 1 not in state.rounds:
        return {"next_round": None}
    return {"next_round": number + 1, "repair_possible": not started}


def _record(state: TournamentState, command: RecordResult) -> list[TournamentEvent]:
    r = command.result
    table = _table(state, r.round, r.table)
    if table is None:
        return []
    if table.status == FINISHED:
        if table.result_entry(r.round) == r:
            return []  # the same result: a repeated job
        return [
            ResultCorrected(
                round=r.round,
                table=r.table,
                before=result_to_data(table.result_entry(r.round)),
                after=r,
                **_later_round_note(state, r.round, command.next_round_started),
            )
        ]
    recorded = ResultRecorded(result=r)
    events: list[TournamentEvent] = [recorded]
    state = evolve(state, recorded)
    round_ = state.rounds[r.round]
    if round_.status == PAIRED and all(t.status == FINISHED for t in round_.tables):
        events += _round_end(state, r.round)
    return events


def _withdraw_result(state: TournamentState, command: WithdrawResult) -> list[TournamentEvent]:
    table = _table(state, command.round, command.table)
    if table is None or table.status != FINISHED:
        return []
    return [
        ResultCorrected(
            round=command.round,
            table=command.table,
            before=result_to_data(table.result_entry(command.round)),
            after=None,
            **_later_round_note(state, command.round, command.next_round_started),
        )
    ]


def _rule(state: TournamentState, command: RuleResult) -> list[TournamentEvent]:
    table = _table(state, command.round, command.table)
    if table is None:
        raise TournamentInputError("no such table in that round", code="pairing")
    if table.status == FINISHED or table.match is None:
        raise TournamentConflictError("this pairing already has a result", code="finished")
    if command.winner not in (table.player1, table.player2):
        raise TournamentInputError("the winner must be one of the pairing's players")
    return [
        ResultRuled(
            round=command.round, table=command.table, winner=command.winner, match=table.match
        )
    ]


# --- settings -------------------------------------------------------------------------------


def decide_settings_change(
    state: TournamentState, *, current: dict[str, Any], wanted: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """The settings that change ({name: {"old", "new"}}, values as given), refusing
    (SettingFixedError) what may no longer change once the tournament has started."""
    changed = {}
    for name, value in wanted.items():
        if value == current[name]:
            continue
        if name in SETTINGS_FIXED_AFTER_START and state.started:
            raise SettingFixedError(name)
        if name == "rounds_planned" and state.top_cut and state.started:
            raise SettingFixedError(name)  # the knockout follows the Swiss rounds fixed
        changed[name] = {"old": current[name], "new": value}
    return changed
