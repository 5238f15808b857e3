"""Fixtures for tournament tests: an organiser, their club, after-commit jobs on demand.

Celery runs eagerly (tests/conftest.py) unless a test is marked `celery_worker`, which
starts a real worker instead. Bots and tournaments are made by tests/tournaments/helpers.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from players.models import Club


@pytest.fixture
def organiser(db: Any) -> Any:
    user = get_user_model().objects.create_user(username="org", password="pw-organiser")
    club = Club.objects.create(name="Gin Club", slug="gin-club")
    club.organisers.add(user)
    return user


@pytest.fixture
def club(organiser: Any) -> Club:
    return Club.objects.get(slug="gin-club")


@pytest.fixture
def jobs(django_capture_on_commit_callbacks: Any) -> Any:
    """`with jobs(): ...` runs the after-commit work (signals, eager Celery jobs) at exit."""

    def run() -> Any:
        return django_capture_on_commit_callbacks(execute=True)

    return run
