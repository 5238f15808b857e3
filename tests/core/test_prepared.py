"""Prepared statements: prepared once per connection, again on a new one."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from core.prepared import PreparedStatement

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


def test_the_statement_runs_the_prepared_one_with_its_arguments():
    pair = PreparedStatement("test_pair", "SELECT $2::text, $1::int", 2)
    sql, params = pair.statement([5, "b"])
    assert (sql, params) == (f"EXECUTE {pair.name}(%s, %s)", [5, "b"])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        assert cursor.fetchall() == [("b", 5)]


def test_without_prepared_statements_the_same_sql_runs_plain(settings):
    # Behind pgbouncer in transaction mode: no PREPARE, placeholders filled in the order
    # the text uses them, repeats included; a literal % stays one.
    settings.DB_PREPARED_STATEMENTS = False
    statement = PreparedStatement("test_plain", "SELECT $2::text, $1::int, $2::text || '%'", 2)
    sql, params = statement.statement([7, "x"])
    assert (sql, params) == ("SELECT %s::text, %s::int, %s::text || '%%'", ["x", 7, "x"])
    with CaptureQueriesContext(connection) as queries, connection.cursor() as cursor:
        cursor.execute(sql, params)
        assert cursor.fetchall() == [("x", 7, "x%")]
    assert not [q for q in queries.captured_queries if q["sql"].startswith("PREPARE")]


def test_the_wrong_number_of_arguments_is_refused():
    with pytest.raises(ValueError, match="takes 2 arguments, not 1"):
        PreparedStatement("test_arity", "SELECT $1::int, $2::int", 2).statement([1])
