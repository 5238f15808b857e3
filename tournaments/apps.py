from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games.signals import match_finished, match_reopened
        from tournaments.receivers import on_match_finished, on_match_reopened

        match_finished.connect(on_match_finished, dispatch_uid="tournaments.match_finished")
        match_reopened.connect(on_match_reopened, dispatch_uid="tournaments.match_reopened")
        # Register the jobs that `tournaments.jobs` queues by name.
        from tournaments import tasks  # noqa: F401
