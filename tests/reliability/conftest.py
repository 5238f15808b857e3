import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is marked `reliability`, so the suite runs alone: `pytest -m reliability`."""
    for item in items:
        if "tests/reliability/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.reliability)
