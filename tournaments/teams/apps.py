from django.apps import AppConfig


class TeamsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments.teams"
    label = "teams"
    verbose_name = "Team events"

    def ready(self) -> None:
        # Imported here: models and receivers load once the apps are ready.
        from games.signals import match_finished
        from tournaments.teams import tasks  # noqa: F401 - registers the jobs
        from tournaments.teams.receivers import on_board_match_finished

        match_finished.connect(on_board_match_finished, dispatch_uid="teams.match_finished")
        # Team event snapshots of another state shape are superseded (prune_snapshots).
        import eventstore
        from tournaments.teams.repository import SNAPSHOT_KIND

        eventstore.snapshot_kind_register(family="team-event-state-v", kind=SNAPSHOT_KIND)
        # The event store finds a team event's stream cut short by the version its record holds.
        from tournaments.teams.selectors import team_event_stream_heads

        eventstore.recorded_heads_register("team_events", team_event_stream_heads)
