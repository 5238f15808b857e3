from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The shared kernel (errors, prepared statements, API plumbing, idempotency records)."""

    name = "core"
    label = "core"
    default_auto_field = "django.db.models.BigAutoField"
