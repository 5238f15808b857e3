from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments.ratings"
    label = "ratings"
    verbose_name = "Club ratings and seasons"

    def ready(self) -> None:
        # Imported here, not at the top: models and receivers load once the apps are ready.
        # A finished club tournament's events queue the ratings job with them, through the
        # outbox (tournaments.repository); beat's reconciler catches a job that was lost.
        from tournaments.ratings import tasks  # noqa: F401 - registers the jobs
