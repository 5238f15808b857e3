"""Settings the webhook services share."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings

log = logging.getLogger(__name__)

MAX_ENDPOINTS_PER_TOURNAMENT = 10
# A job may start this much before its delivery's time (clocks of different workers).
_EARLY = dt.timedelta(milliseconds=100)


def setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))
