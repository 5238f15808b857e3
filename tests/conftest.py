from collections.abc import Iterator

import pytest
from rest_framework.test import APIClient

from config.celery import app as celery_app


@pytest.fixture(autouse=True)
def eager_celery(request: pytest.FixtureRequest) -> Iterator[None]:
    """Jobs run in process (after commit) even when CELERY_BROKER_URL points at Redis, except
    in tests marked `celery_worker`, which start a real worker."""
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _fresh_match_states() -> Iterator[None]:
    """Each test starts with no match state remembered by this process (a remembered state
    is only ever used where the events vouch for it, but a test reads as it would alone)."""
    from games.repository import match_states_forget

    match_states_forget()
    yield
    match_states_forget()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()
