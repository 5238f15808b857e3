from typing import Any

from django.apps import AppConfig
from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.db.models.signals import post_migrate


class EventStoreConfig(AppConfig):
    """The event store: one append-only table of every stream's events (see __init__)."""

    name = "eventstore"
    label = "eventstore"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        post_migrate.connect(_record_signing_key, sender=self)


def _record_signing_key(using: str = "default", **kwargs: Any) -> None:
    """After every `migrate`: record the signing key's id and check value (eventstore.keys),
    refusing a key id that this database knows with another secret."""
    # The keys read the models: not importable while the apps load (this module is how).
    from eventstore.keys import KeyConflictError, chain_key_register

    if "eventstore_chainkey" not in connections[using].introspection.table_names():
        return  # migrated to a point before key ids
    try:
        chain_key_register()
    except KeyConflictError as exc:
        raise ImproperlyConfigured(str(exc)) from exc
