"""Bot players driven through the service layer (demo, tests, benchmarks): each move is
chosen by the engine's bot from what its seat may know, then played with `match_act` like
any other player's, so it is validated, stored and projected the same way."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction

from games import repository
from games.engine.bot import choose_action
from games.models import Match
from games.repository import MatchWrite
from games.selectors import match_get, match_state_at
from games.services import match_act, match_play_in_tx
from players.models import Player


def match_play_bots(
    *,
    match_id: uuid.UUID | str,
    max_actions: int = 100_000,
    bots_only: bool = True,
) -> Match:
    """Play bot moves until the match ends, a human is to move (when `bots_only`), or
    `max_actions` moves were made. One transaction per move, as online."""
    match = match_get(match_id=match_id)
    players = {0: match.player1, 1: match.player2}
    for _ in range(max_actions):
        state, version = match_state_at(match=match)
        seat = state.turn
        if state.status != "in_progress" or seat is None:
            break
        player: Player = players[seat]
        if bots_only and not player.is_bot:
            break
        action = choose_action(state, seat)
        saved = match_act(match_id=match.id, player=player, action=action, expected_version=version)
        match = saved.match
    return match


def match_play_bots_batched(*, match: Match, max_actions: int = 100_000) -> int:
    """The same moves and events as `match_play_bots`, decided in memory and saved at once
    (bulk loading for benchmarks and tests). Returns moves made."""
    with transaction.atomic():
        write = repository.match_load_unlocked(match=match)
        moves = write_play_bots_in_tx(write=write, max_actions=max_actions)
        repository.match_save(write)
    return moves


def write_play_bots_in_tx(*, write: MatchWrite, max_actions: int = 100_000) -> int:
    """Bot moves on a loaded match, recorded but not saved (the caller saves)."""
    moves = 0
    while moves < max_actions:
        state = write.state
        seat = state.turn
        if state.status != "in_progress" or seat is None:
            break
        action: dict[str, Any] = choose_action(state, seat)
        match_play_in_tx(write=write, seat=seat, action=action)
        moves += 1
    return moves
