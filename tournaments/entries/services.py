"""The calendar feeds' writes (issue 40): a player's feed made on first use, and a new
secret that revokes the old address."""

from __future__ import annotations

import secrets

from core.transactions import write_service
from players.models import Player
from tournaments.entries.models import CalendarFeed


@write_service
def calendar_feed_of(*, player: Player) -> CalendarFeed:
    """The player's calendar feed (made on first use)."""
    feed, _ = CalendarFeed.objects.get_or_create(player=player)
    return feed


@write_service
def calendar_feed_renew(*, player: Player) -> CalendarFeed:
    """A new secret: the old URL stops working at once."""
    feed, _ = CalendarFeed.objects.get_or_create(player=player)
    feed.token = secrets.token_urlsafe(24)
    feed.save(update_fields=["token"])
    return feed
