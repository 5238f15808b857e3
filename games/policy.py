"""The one policy between games and the app that groups matches (STYLE 16).

Games know nothing of tournaments, yet a tournament has a say in four things about its
matches: whether a finished match's result may still change (a knockout whose next match,
played by the winner, is in play), whether a dispute may still be opened (a time limit),
which matches a user may not see (those of private tournaments) and which ones anyone may
read (those of public tournaments). `MatchPolicy` names those four questions; the app that
groups matches implements it, and the setting `GAMES_MATCH_POLICY` (config/settings/base.py)
names the implementation: the one place where it is registered. Without the setting, the
`DefaultMatchPolicy`: everything allowed, nothing hidden, nothing public.

A policy only answers: it reads, never writes, and refuses by raising a domain error
(core.errors, games.errors), which rolls back the command that asked. Signals
(games.signals) only announce what has committed."""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any, Protocol

from django.conf import settings
from django.core.signals import setting_changed
from django.db.models import QuerySet
from django.dispatch import receiver
from django.utils.module_loading import import_string

SETTING = "GAMES_MATCH_POLICY"


class MatchPolicy(Protocol):
    """What the app that groups matches decides about them. Each method is asked inside
    the transaction of the command or the request that needs the answer."""

    def check_result_change(
        self, *, match_id: Any, winner_before: int | None, winner_after: int | None
    ) -> None:
        """A ruling is about to change a finished match's winner (`winner_after` None: it
        puts the match back in play); players by id. Raise a domain error to refuse."""

    def check_dispute_open(
        self, *, match_id: Any, finished_at: dt.datetime | None, at: dt.datetime
    ) -> None:
        """A player is opening a dispute at `at`; `finished_at` is when the match ended
        (None while it is in play). Raise a domain error to refuse."""

    def matches_hidden_from(self, *, user: Any) -> QuerySet | None:
        """The ids of the matches `user` may not see (a queryset of ids, never NULL), or
        None when nothing is hidden. The match's players and organisers, and staff, see it
        whatever this says."""

    def match_is_public(self, *, match_id: Any) -> bool:
        """May anyone read the match, signed out too (a match of a public tournament)?"""


class DefaultMatchPolicy:
    """No app groups matches: every result may change, every dispute may open, no match is
    hidden from a signed-in user and none is public (a friendly)."""

    def check_result_change(
        self, *, match_id: Any, winner_before: int | None, winner_after: int | None
    ) -> None:
        return None

    def check_dispute_open(
        self, *, match_id: Any, finished_at: dt.datetime | None, at: dt.datetime
    ) -> None:
        return None

    def matches_hidden_from(self, *, user: Any) -> QuerySet | None:
        return None

    def match_is_public(self, *, match_id: Any) -> bool:
        return False


@functools.cache
def match_policy() -> MatchPolicy:
    """The policy the setting names (an instance of that class), loaded on first use: games
    import no app that implements it."""
    path = getattr(settings, SETTING, None)
    if not path:
        return DefaultMatchPolicy()
    return import_string(path)()


@receiver(setting_changed)
def _policy_setting_changed(*, setting: str, **kwargs: Any) -> None:
    # A test that overrides the setting gets the policy it names.
    if setting == SETTING:
        match_policy.cache_clear()
