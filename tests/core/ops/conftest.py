import pytest


@pytest.fixture(autouse=True)
def _fresh_throttles(fresh_throttles: None) -> None:
    """Each test starts with no throttle counters (tests/conftest.py)."""
