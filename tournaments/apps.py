from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        # Games tell what committed; what tournaments decide about their matches (may a
        # result change, may a dispute open, who may see a match) is their MatchPolicy,
        # named by the setting GAMES_MATCH_POLICY (tournaments/policy.py).
        from games.signals import match_finished, match_reopened
        from tournaments.receivers import on_match_finished, on_match_reopened
        from tournaments.selectors import tournament_stream_heads

        match_finished.connect(on_match_finished, dispatch_uid="tournaments.match_finished")
        match_reopened.connect(on_match_reopened, dispatch_uid="tournaments.match_reopened")
        # The event store finds a tournament stream cut short by the version its record holds.
        import eventstore

        eventstore.recorded_heads_register("tournaments", tournament_stream_heads)
        # Tournament snapshots of another state shape are superseded (prune_snapshots).
        from tournaments.repository import SNAPSHOT_KIND

        eventstore.snapshot_kind_register(family="tournament-state-v", kind=SNAPSHOT_KIND)
        # Register the jobs that `tournaments.jobs` queues by name.
        from tournaments import tasks  # noqa: F401

        # Webhooks: a tournament's committed events become deliveries.
        from tournaments.signals import tournament_events_committed
        from tournaments.webhooks import tasks as webhook_tasks  # noqa: F401
        from tournaments.webhooks.receivers import on_tournament_events_committed

        tournament_events_committed.connect(
            on_tournament_events_committed, dispatch_uid="tournaments.webhooks"
        )
