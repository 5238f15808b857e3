"""Issue 38: every operation of the served schema has a summary and a description of its
own (config/openapi_operations.py, or the view's docstring), so the API docs' titles are
words, not operation ids."""

from __future__ import annotations

from collections import Counter

import pytest

from config.openapi_operations import OPERATIONS

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def operations(django_db_blocker) -> list[dict]:
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        schema = APIClient().get("/api/schema/?format=json").json()
    return [
        {**op, "path": path, "method": method}
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if method in METHODS
    ]


def test_every_operation_has_a_summary_and_a_description(operations):
    assert len(operations) > 70
    missing = [
        f"{op['operationId']} ({op['method'].upper()} {op['path']})"
        for op in operations
        if not (op.get("summary") or "").strip() or not (op.get("description") or "").strip()
    ]
    assert not missing, (
        "Give these a summary and a description in config/openapi_operations.py "
        f"(OPERATIONS): {missing}"
    )


def test_no_two_operations_share_a_summary_or_a_description(operations):
    """A class docstring covering a list and its create (or every tournament endpoint)
    described none of them: each operation says what it does."""
    for field in ("summary", "description"):
        counts = Counter(op[field].strip() for op in operations)
        shared = sorted(op["operationId"] for op in operations if counts[op[field].strip()] > 1)
        assert not shared, f"{field} shared by {shared}"


def test_the_table_names_only_operations_that_exist(operations):
    ids = {op["operationId"] for op in operations}
    assert set(OPERATIONS) - ids == set()


def test_a_summary_is_a_title(operations):
    for op in operations:
        summary = op["summary"]
        assert len(summary) <= 80 and not summary.endswith("."), op["operationId"]
