import pytest


@pytest.fixture(autouse=True)
def _fresh_throttles(fresh_throttles: None) -> None:
    """API tests: each starts with no throttle counters (tests/conftest.py)."""
