from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games.signals import match_finished, match_reopened, match_result_changing
        from tournaments.receivers import (
            on_match_finished,
            on_match_reopened,
            on_match_result_changing,
        )

        match_finished.connect(on_match_finished, dispatch_uid="tournaments.match_finished")
        match_reopened.connect(on_match_reopened, dispatch_uid="tournaments.match_reopened")
        match_result_changing.connect(
            on_match_result_changing, dispatch_uid="tournaments.match_result_changing"
        )
        # Register the jobs that `tournaments.jobs` queues by name.
        from tournaments import tasks  # noqa: F401
