from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games.signals import (
            dispute_opening,
            match_finished,
            match_reopened,
            match_result_changing,
        )
        from tournaments.receivers import (
            on_dispute_opening,
            on_match_finished,
            on_match_reopened,
            on_match_result_changing,
        )

        match_finished.connect(on_match_finished, dispatch_uid="tournaments.match_finished")
        match_reopened.connect(on_match_reopened, dispatch_uid="tournaments.match_reopened")
        match_result_changing.connect(
            on_match_result_changing, dispatch_uid="tournaments.match_result_changing"
        )
        dispute_opening.connect(on_dispute_opening, dispatch_uid="tournaments.dispute_opening")
        # The matches of private tournaments are hidden from who may not see those; those
        # of public ones may be read by anyone, signed out too (and audited once finished).
        from games.selectors import match_public_register, match_visibility_register
        from tournaments.selectors import (
            match_in_public_tournament,
            matches_hidden_from,
            tournament_stream_heads,
        )

        match_visibility_register(matches_hidden_from)
        match_public_register(match_in_public_tournament)
        # The event store finds a tournament stream cut short by the version its record holds.
        import eventstore

        eventstore.recorded_heads_register("tournaments", tournament_stream_heads)
        # Register the jobs that `tournaments.jobs` queues by name.
        from tournaments import tasks  # noqa: F401

        # Webhooks: a tournament's committed events become deliveries.
        from tournaments.signals import tournament_events_committed
        from tournaments.webhooks import tasks as webhook_tasks  # noqa: F401
        from tournaments.webhooks.receivers import on_tournament_events_committed

        tournament_events_committed.connect(
            on_tournament_events_committed, dispatch_uid="tournaments.webhooks"
        )
