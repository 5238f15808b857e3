from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The shared kernel (errors, prepared statements, API plumbing, idempotency records,
    the outbox, heartbeats, alerts, metrics)."""

    name = "core"
    label = "core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: models and receivers load once the apps are ready.
        from django.contrib.auth.signals import user_login_failed
        from django.db.backends.signals import connection_created

        from core import metrics
        from core.ops_metrics import register_scrape_gauges

        # Every connection times its queries for the request or job that runs them.
        connection_created.connect(metrics.db_timer_install, dispatch_uid="core.db_timer")
        user_login_failed.connect(
            lambda **kwargs: metrics.login_failures.inc(), weak=False,
            dispatch_uid="core.login_failures",
        )  # fmt: skip
        register_scrape_gauges()
