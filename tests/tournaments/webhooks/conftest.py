"""Fixtures of the webhook tests: the fast webhook settings (a receiver on 127.0.0.1
allowed, short timeouts and backoff), a receiver serving while the test runs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.tournaments.webhooks.helpers import FAST_WEBHOOKS, Receiver, receiving


@pytest.fixture
def fast_webhooks(settings: Any) -> Any:
    settings.WEBHOOK_ALLOWED_NETWORKS = [FAST_WEBHOOKS["WEBHOOK_ALLOWED_NETWORKS"]]
    for name in (
        "WEBHOOK_TIMEOUT_SECONDS",
        "WEBHOOK_BACKOFF_SECONDS",
        "WEBHOOK_BACKOFF_MAX_SECONDS",
    ):
        setattr(settings, name, float(FAST_WEBHOOKS[name]))
    settings.WEBHOOK_MAX_ATTEMPTS = int(FAST_WEBHOOKS["WEBHOOK_MAX_ATTEMPTS"])
    return settings


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving(Receiver()) as served:
        yield served
