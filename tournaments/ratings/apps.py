from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments.ratings"
    label = "ratings"
    verbose_name = "Club ratings and seasons"

    def ready(self) -> None:
        # A finished tournament's committed events (its finish, a corrected result) queue
        # the ratings job; beat's reconciler catches a job that was lost.
        from tournaments.ratings import tasks  # noqa: F401 - registers the jobs
        from tournaments.ratings.receivers import on_tournament_events_committed
        from tournaments.signals import tournament_events_committed

        tournament_events_committed.connect(
            on_tournament_events_committed, dispatch_uid="tournaments.ratings"
        )
