from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Register the jobs that `games.jobs` queues by name.
        from games import tasks  # noqa: F401
