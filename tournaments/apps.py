from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        # The domain's errors (pure Python) go through the services as they are; the API
        # and the pages show each as tournaments.errors says (core.errors.application_error).
        from core.errors import domain_errors_register
        from tournaments.errors import TournamentError, api_error

        domain_errors_register(TournamentError, api_error)

        # Imported here, not at the top: models and receivers load once the apps are ready.
        # Games tell what committed; what tournaments decide about their matches (may a
        # result change, may a dispute open, who may see a match) is their MatchPolicy,
        # named by the setting GAMES_MATCH_POLICY (tournaments/selectors/match_policy.py).
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
        # A team tournament's webhooks send its team event's events (issue 39).
        from tournaments.teams.signals import team_event_events_committed
        from tournaments.webhooks.receivers import on_team_event_events_committed

        team_event_events_committed.connect(
            on_team_event_events_committed, dispatch_uid="tournaments.webhooks.teams"
        )
        # Notices: a hand waiting for a player's confirmation, a dispute ruled (issue 40).
        from games.signals import dispute_resolved, table_entry_changed
        from tournaments.notices.receivers import on_dispute_resolved, on_table_entry_changed

        table_entry_changed.connect(on_table_entry_changed, dispatch_uid="tournaments.notices")
        dispute_resolved.connect(on_dispute_resolved, dispatch_uid="tournaments.notices")

        # What the operators see (core.alerts, core.metrics): who hears of a tournament's
        # alerts, which tournament a failed job concerns, the rounds overdue to pair.
        from core import alerts, metrics
        from tournaments.selectors import rounds_overdue, tournament_alert_recipients

        alerts.recipients_register(tournament_alert_recipients)
        alerts.job_tournament_register("tournaments.round_pair", _first_int)
        metrics.scrape_gauge(
            "hg_rounds_overdue",
            "Rounds whose start time passed over two minutes ago and are still unpaired.",
            lambda: [({}, len(rounds_overdue()))],
        )


def _first_int(args: object) -> int | None:
    """A job whose first argument is its tournament's id."""
    first = next(iter(args), None) if isinstance(args, list | tuple) else None
    return first if isinstance(first, int) else None
