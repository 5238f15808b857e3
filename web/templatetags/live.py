"""Template tags of the live pages (web/static/web/live.js)."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def live_poll(default: int = 15) -> int:
    """Seconds between two polls of a live page whose stream is unavailable: the setting
    WEB_LIVE_POLL_SECONDS (tests shorten it), else `default`."""
    return int(getattr(settings, "WEB_LIVE_POLL_SECONDS", default))
