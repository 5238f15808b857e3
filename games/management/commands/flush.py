"""`manage.py flush`, which also wipes the append-only event table.

Django's flush empties every table (TRUNCATE on PostgreSQL, DELETE on SQLite); the event
table's triggers refuse that, so this lifts them for the flush's own transaction only.
Test teardown (TransactionTestCase, pytest-django's transactional_db) calls this command.
"""

from typing import Any

from django.core.management.commands import flush

from eventstore import immutability_suspended


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        with immutability_suspended(using=options["database"]):
            super().handle(**options)
