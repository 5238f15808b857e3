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
        # The matches of private tournaments are hidden from who may not see those.
        from games.selectors import match_visibility_register
        from tournaments.selectors import matches_hidden_from, tournament_stream_heads

        match_visibility_register(matches_hidden_from)
        # The event store finds a tournament stream cut short by the version its record holds.
        import eventstore

        eventstore.recorded_heads_register("tournaments", tournament_stream_heads)
        # Register the jobs that `tournaments.jobs` queues by name.
        from tournaments import tasks  # noqa: F401
