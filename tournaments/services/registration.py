"""Entries: registering, checking in and withdrawing (load → decide → save)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from core.errors import PermissionDeniedError
from core.transactions import write_service
from players.models import Player
from tournaments.domain.commands import CheckIn, Register, UndoCheckIn, Withdraw
from tournaments.domain.state import IN_PROGRESS
from tournaments.models import Registration, Tournament
from tournaments.repository import tournament_load
from tournaments.selectors import user_can_organise
from tournaments.selectors.entries import entry_rules_of
from tournaments.services._common import run
from tournaments.services.rulings import table_forfeit_in_tx, tables_in_play_of
from tournaments.services.waitlist import eligibility_check, withdrawal_check


def _may_act_for(*, user: AbstractBaseUser, tournament: Tournament, player: Player) -> None:
    """A player acts for themselves; organisers act for anyone."""
    if player.user_id is not None and player.user_id == user.pk:
        return
    if not user_can_organise(user=user, tournament=tournament):
        raise PermissionDeniedError("only the player or an organiser may do this")


def _registration(tournament: Tournament, player: Player) -> Registration:
    return Registration.objects.get(tournament=tournament, player=player)


@write_service
def tournament_register(
    *, tournament_id: int, player: Player, by: AbstractBaseUser
) -> Registration:
    """Enter a player. After the start this is a late entry (Swiss only): the player is paired
    from the next round on, with no score for the rounds already played. Beyond the
    tournament's capacity the entry is waitlisted; a player entering themselves meets the
    organisers' entry rules, and where they approve each entry it waits for them."""
    write = tournament_load(tournament_id=tournament_id)
    _may_act_for(user=by, tournament=write.row, player=player)
    organiser = user_can_organise(user=by, tournament=write.row)
    if not write.row.is_public and not organiser:
        raise PermissionDeniedError("only organisers enter players in a private tournament")
    approval = False
    if not organiser:  # a player entering themselves: the organisers' rules (issue 40)
        rules = entry_rules_of(write.row)
        eligibility_check(tournament=write.row, rules=rules, player=player)
        approval = rules.approval_required
    run(write, Register(player=player.pk, approval=approval), by=by)
    return _registration(write.row, player)


@write_service
def tournament_check_in(
    *, tournament_id: int, player: Player, by: AbstractBaseUser
) -> Registration:
    """Confirm a registered player is present; checking in twice changes nothing."""
    write = tournament_load(tournament_id=tournament_id)
    _may_act_for(user=by, tournament=write.row, player=player)
    run(write, CheckIn(player=player.pk), by=by)
    return _registration(write.row, player)


@write_service
def tournament_check_in_undo(
    *, tournament_id: int, player: Player, by: AbstractBaseUser, reason: str = ""
) -> Registration:
    """Undo a check-in made by mistake (the player is registered again); only before the
    player's first pairing, else they withdraw. Undoing twice changes nothing."""
    write = tournament_load(tournament_id=tournament_id)
    _may_act_for(user=by, tournament=write.row, player=player)
    run(write, UndoCheckIn(player=player.pk), by=by, reason=reason)
    return _registration(write.row, player)


@write_service
def tournament_withdraw(
    *,
    tournament_id: int,
    player: Player,
    by: AbstractBaseUser,
    reason: str = "",
    forfeit_current: bool = False,
) -> Registration:
    """Withdraw a player: they are not paired again. With `forfeit_current` (organisers
    only), a match of theirs still in play is forfeited to the opponent by ruling."""
    write = tournament_load(tournament_id=tournament_id)
    _may_act_for(user=by, tournament=write.row, player=player)
    already = write.state.entries.get(player.pk)
    if already is not None and already.status == "withdrawn":
        return _registration(write.row, player)
    organiser = user_can_organise(user=by, tournament=write.row)
    if forfeit_current and not organiser:
        raise PermissionDeniedError("only organisers rule a forfeit")
    if not organiser:
        withdrawal_check(rules=entry_rules_of(write.row), now=timezone.now())
    run(write, Withdraw(player=player.pk), by=by, reason=reason)
    if forfeit_current and write.state.status == IN_PROGRESS:
        for number, table in tables_in_play_of(write.state, player.pk):
            winner = table.player2 if table.player1 == player.pk else table.player1
            table_forfeit_in_tx(
                write, round_number=number, table=table.table, winner=winner,
                by=by, reason=reason or "withdrawn",
            )  # fmt: skip
    return _registration(write.row, player)
