"""Reads of the match rows: outcomes for other apps, the lists a user may see, the deals
an organiser chose, a match's hand rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet

from core.memo import Memo
from games.engine.ruleset import Ruleset
from games.models import Match, MatchDealPlan
from games.selectors.visibility import User, _visible_only
from players.selectors import player_for_user


@dataclass(frozen=True)
class MatchOutcome:
    """A match's result as other apps see it (tournaments record it), read from its read
    model: status, winner (player id), games won and points per player (player1 first),
    how it finished, when it last moved, and its stream version."""

    match_id: str
    status: str
    player1: int
    player2: int
    winner: int | None
    games_won: tuple[int, int]
    points: tuple[int, int]
    finish_reason: str
    last_action_at: Any
    version: int
    turn_player: int | None = None  # who is to move (online play), by id


def match_outcomes(*, match_ids: Any) -> dict[str, MatchOutcome]:
    """The outcomes of the matches `match_ids` (unknown ids are left out), by match id."""
    rows = Match.objects.filter(pk__in=list(match_ids)).values_list(
        "id", "status", "player1_id", "player2_id", "winner_id", "games_won_p1",
        "games_won_p2", "points_p1", "points_p2", "finish_reason", "last_action_at", "version",
        "turn_player_id",
    )  # fmt: skip
    out = {}
    for mid, status, p1, p2, winner, g1, g2, pt1, pt2, reason, last, version, turn in rows:
        out[str(mid)] = MatchOutcome(
            str(mid), status, p1, p2, winner, (g1, g2), (pt1, pt2), reason, last, version, turn
        )
    return out


def ruleset_normalise(*, ruleset: dict | None) -> dict:
    """A ruleset as stored (every option, defaults filled in); InvalidRulesetError if not
    valid (RULES 9)."""
    return Ruleset.from_dict(ruleset).to_dict()


# -- deals an organiser chose ------------------------------------------------------------------


def match_has_preset_deals(*, match: Match) -> bool:
    """Did an organiser choose this match's deals (a seed or decks)? Such a match is marked
    so in every view; a tournament never makes one."""
    annotated = getattr(match, "preset_deals", None)
    if annotated is not None:
        return bool(annotated)
    return _preset_deals(match.pk)


def _preset_deals(match_id: Any) -> bool:
    # Remembered per process: a deal plan is written with its match, in the same
    # transaction, and never changes; this keeps the query off every action's view.
    known = _PRESET_DEALS.get(match_id)
    if known is None:
        known = MatchDealPlan.objects.filter(match_id=match_id).exists()
        _PRESET_DEALS.put(match_id, known)
    return known


# By match id: the matches in play, and more; one not looked at for a while goes.
_PRESET_DEALS: Memo[Any, bool] = Memo(maxsize=4096, idle=lambda: settings.MATCH_CACHE_IDLE_SECONDS)


def matches_with_preset_deals(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Each match annotated with `preset_deals` (read by `match_has_preset_deals`)."""
    return matches.annotate(
        preset_deals=Exists(MatchDealPlan.objects.filter(match_id=OuterRef("pk")))
    )


def match_list_for(
    *,
    user: User,
    mine: bool = False,
    status: str | None = None,
    mode: str | None = None,
    player: int | None = None,
) -> QuerySet[Match]:
    """Matches the user may see (`match_visible_to`), newest first; `mine` keeps the caller's own,
    `player` those of one player (by id), `status` and `mode` those in that status or mode."""
    qs = Match.objects.select_related("player1", "player2", "winner", "turn_player")
    qs = matches_with_preset_deals(_visible_only(qs, user))
    if player is not None:
        qs = qs.filter(Q(player1_id=player) | Q(player2_id=player))
    if mode:
        qs = qs.filter(mode=mode)
    if mine:
        own = player_for_user(user=user)
        if own is None:
            return qs.none()
        qs = qs.filter(Q(player1=own) | Q(player2=own))
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("-created_at", "id")


def matches_online_in_play_of(*, user: User, first_ids: Any, limit: int) -> list[Match]:
    """The user's own online matches in play, not practice, newest first, at most `limit`:
    those whose ids are in `first_ids` (e.g. the user's tournament matches: friendlies
    never push them past the limit) first, then the others."""
    qs = match_list_for(user=user, mine=True, status="in_progress", mode="online")
    qs = qs.filter(practice=False).select_related("player1", "player2")
    first = list(qs.filter(pk__in=first_ids)[:limit])
    return first + list(qs.exclude(pk__in=first_ids)[: limit - len(first)])


def match_list_followable(*, user: User, also_ids: Any = ()) -> QuerySet[Match]:
    """Matches `user` plays in or organises (every match for staff), plus those whose ids
    are in `also_ids` (e.g. the matches of tournaments the user may see), newest first;
    each with `preset_deals` (whether an organiser chose its deals)."""
    matches = matches_with_preset_deals(Match.objects.all())
    if user is not None and user.is_authenticated and user.is_staff:
        return matches.order_by("-created_at")
    query = Q(pk__in=also_ids)
    if user is not None and user.is_authenticated:
        query |= Q(organisers=user) | Q(player1__user=user) | Q(player2__user=user)
    return matches.filter(query).distinct().order_by("-created_at")


def match_hand_rows(*, match: Match) -> QuerySet:
    """The match's hands read model (one row per hand), in order, with the players."""
    return match.hands.select_related("knocker", "winner").order_by("hand_number")
