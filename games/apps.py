from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Imported here, not at the top: models and receivers load once the apps are ready.
        import eventstore

        # Register the jobs that `games.jobs` queues by name.
        from games import tasks  # noqa: F401
        from games.repository import SNAPSHOT_KIND

        # Match snapshots of another state shape are superseded (manage.py prune_snapshots).
        eventstore.snapshot_kind_register(family="match-state-v", kind=SNAPSHOT_KIND)
