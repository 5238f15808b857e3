"""Practice against the bot: a signed-in player starts a match against the engine's bot
(`games.engine.bot`), played like any online match; the bot's moves are Celery jobs queued
after each commit that leaves it to move (`services.match_act`, games/jobs.py). A practice
match is marked on its row and in its first event's registration (`practice`), is never a
tournament's and never rated (nothing rates a friendly)."""

from __future__ import annotations

import uuid

from django.db.models import Q, QuerySet

from core.errors import PermissionDeniedError, VersionConflictError
from core.transactions import write_service
from games import jobs, services
from games.engine.bot import choose_action
from games.engine.errors import RuleError
from games.models import Match
from games.selectors import match_get, match_state_at
from players.models import Player

BOT_NAME = "Practice bot"
PRACTICE_LABEL = "Practice"
# Practice matches a player has in play at once: starting one more abandons (resigns) the
# oldest, so that practice never piles up in the lobby (issue 32). Their creation is also
# throttled (THROTTLE_PRACTICE: games.apis.practice.PracticeRateThrottle).
PRACTICE_OPEN_MAX = 3
ABANDONED = "practice:abandoned"  # the request id of the resignation that abandons one
# The most bot moves one job makes: a turn is two, a hand's end and the next deal's upcard
# choice at most two more.
BOT_MOVES_PER_JOB = 8


def practice_bot() -> Player:
    """The bot every practice match is played against (made on first use)."""
    bot = Player.objects.filter(is_bot=True, name=BOT_NAME, user=None).order_by("pk").first()
    return bot or Player.objects.create(name=BOT_NAME, is_bot=True)


@write_service
def practice_start(
    *, player: Player, ruleset: dict | None = None, seed: str | None = None
) -> Match:
    """A new practice match of `player` against the bot; the player sits first and deals
    at random. Past PRACTICE_OPEN_MAX in play, the oldest is abandoned (resigned). If the
    bot is to move first, its move is queued on commit."""
    if player.is_bot or player.user_id is None:
        raise PermissionDeniedError(
            "practice is for a player who signs in", code="not_a_signed_in_player"
        )
    _abandon_oldest_in_tx(player=player, keep=PRACTICE_OPEN_MAX - 1)
    bot = practice_bot()
    match = services.match_create_in_tx(
        player1=player,
        player2=bot,
        ruleset=ruleset,
        seed=seed,
        label=PRACTICE_LABEL,
        practice=True,
        created_by=player.user,
    )
    state, version = match_state_at(match=match)
    if state.turn == 1 and state.status == "in_progress":
        jobs.practice_bot_move_on_commit(match_id=match.pk, version=version)
    return match


def _abandon_oldest_in_tx(*, player: Player, keep: int) -> None:
    """Resign the player's oldest practice matches in play but the newest `keep`."""
    in_play = practice_matches_of(player=player).filter(status="in_progress")
    for match_id in list(in_play.values_list("pk", flat=True))[keep:]:
        try:
            services.match_act_in_tx(
                match_id=match_id, player=player, action={"type": "resign"}, request_id=ABANDONED
            )
        except RuleError:
            continue  # it ended meanwhile (the bot's job finished it): nothing to abandon


def practice_bot_play(*, match_id: uuid.UUID | str, version: int) -> int:
    """The bot's moves in a practice match, from `version` on, while it is the bot's turn
    (each move its own transaction, as a player's). Nothing when the match has moved past
    `version` (a second delivery of the job) or is not a practice match. Moves made."""
    match = match_get(match_id=match_id)
    if not match.practice:
        return 0
    bot_seat = 1 if match.player2.is_bot else 0
    bot = match.player2 if bot_seat == 1 else match.player1
    moves = 0
    state, now = match_state_at(match=match)
    if now != version:
        return 0
    while moves < BOT_MOVES_PER_JOB and state.status == "in_progress" and state.turn == bot_seat:
        try:
            saved = services.match_act(
                match_id=match.pk,
                player=bot,
                action=choose_action(state, bot_seat),
                expected_version=now,
                request_id=f"practice-bot:{now}",
            )
        except (VersionConflictError, RuleError):
            break  # someone else moved (a second job): that one goes on
        state, now, moves = saved.state, saved.version, moves + 1
    return moves


def practice_bot_nudge(*, match: Match) -> bool:
    """Queue the bot again if it is to move in a practice match (a job that was lost): the
    play page asks when it finds the bot to move and nothing happening. True if queued."""
    if not match.practice or match.status != "in_progress":
        return False
    state, version = match_state_at(match=match)
    seat = state.turn
    if seat is None or not (match.player2 if seat == 1 else match.player1).is_bot:
        return False
    jobs.practice_bot_move_now(match_id=match.pk, version=version)
    return True


# -- reads ------------------------------------------------------------------------------------


def practice_matches_of(*, player: Player) -> QuerySet[Match]:
    """The player's practice matches, newest first."""
    qs = Match.objects.filter(practice=True).filter(Q(player1=player) | Q(player2=player))
    return qs.select_related("player1", "player2").order_by("-created_at")
