"""Prepared statements: prepared once per connection, again on a new one."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from config.prepared import PreparedStatement

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only"),
]


def run(statement: PreparedStatement, *args):
    with connection.cursor() as cursor:
        cursor.execute(statement.execute_sql(), list(args))
        return cursor.fetchall()


def test_a_statement_is_prepared_once_per_connection_then_executed():
    double = PreparedStatement("test_double", "SELECT $1::int * 2, $2::text", 2)
    with CaptureQueriesContext(connection) as queries:
        assert run(double, 21, "a") == [(42, "a")]
        assert run(double, 5, "b") == [(10, "b")]
    sql = [q["sql"] for q in queries.captured_queries]
    assert sql[0] == f"PREPARE {double.name} AS SELECT $1::int * 2, $2::text"
    assert sql[1:] == [f"EXECUTE {double.name}(21, 'a')", f"EXECUTE {double.name}(5, 'b')"]


@pytest.mark.django_db(transaction=True)  # closing the connection ends any transaction
def test_a_new_connection_gets_it_prepared_again():
    one = PreparedStatement("test_one", "SELECT 1", 0)
    assert run(one) == [(1,)]
    connection.close()
    with CaptureQueriesContext(connection) as queries:
        assert run(one) == [(1,)]
    assert [q["sql"] for q in queries.captured_queries] == [
        f"PREPARE {one.name} AS SELECT 1",
        f"EXECUTE {one.name}",
    ]


def test_a_rollback_does_not_unprepare_it():
    one = PreparedStatement("test_rolled_back", "SELECT 7", 0)
    with pytest.raises(RuntimeError), transaction.atomic():
        assert run(one) == [(7,)]
        raise RuntimeError("roll back")
    assert run(one) == [(7,)]


def test_a_changed_text_is_a_new_statement():
    first = PreparedStatement("test_changed", "SELECT 1", 0)
    second = PreparedStatement("test_changed", "SELECT 2", 0)
    assert first.name != second.name
    assert (run(first), run(second)) == ([(1,)], [(2,)])
