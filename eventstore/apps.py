from django.apps import AppConfig


class EventStoreConfig(AppConfig):
    """The event store: one append-only table of every stream's events (see __init__)."""

    name = "eventstore"
    label = "eventstore"
    default_auto_field = "django.db.models.BigAutoField"
