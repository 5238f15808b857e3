"""Read models of club ratings and seasons. Every row here is derived from events (the
tournaments' streams, their matches' streams and the club's own stream "club-<id>") and can
be rebuilt from them alone (`manage.py rebuild_ratings`); nothing is edited in place."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext


class ClubPeriod(models.Model):
    """A finished tournament of a club as a rating period: its inputs as read from the
    events (so that re-rating a club reads one row per period, not every match again)."""

    club = models.ForeignKey("players.Club", on_delete=models.CASCADE, related_name="+")
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="rating_period"
    )
    # Global position of the tournament's (first) TournamentFinished event: the order.
    finished_position = models.BigIntegerField()
    finished_at = models.DateTimeField()
    # The tournament stream's version these inputs reflect (the job's guard).
    source_version = models.PositiveIntegerField()
    games = models.JSONField(default=list)  # rated matches: [[winner, loser], ...]
    # Every result with two players: [[player1, player2, winner or null], ...].
    results = models.JSONField(default=list)
    # The final standings: [[player, rank, match_wins], ...], best first.
    standings = models.JSONField(default=list)
    # Results changed after the finish: [{"position", "at", "reason"}, ...].
    causes = models.JSONField(default=list)

    class Meta:
        ordering = ["club", "finished_position"]
        indexes = [models.Index(fields=["club", "finished_position"], name="ratings_period_order")]

    def __str__(self) -> str:
        return gettext("%(club)s: tournament %(tournament)s") % {
            "club": self.club_id,
            "tournament": self.tournament_id,
        }


class ClubRating(models.Model):
    """A player's current rating in a club (after the club's last period)."""

    club = models.ForeignKey("players.Club", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    rating = models.FloatField()
    rd = models.FloatField()
    volatility = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    periods = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["club", "-rating", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="ratings_club_player")
        ]
        indexes = [models.Index(fields=["club", "-rating"], name="ratings_club_list")]

    def __str__(self) -> str:
        return gettext("%(player)s in %(club)s: %(rating)s") % {
            "player": self.player_id,
            "club": self.club_id,
            "rating": f"{self.rating:.0f}",
        }


class RatingEntry(models.Model):
    """What one period did to one player who played in it (periods that only widened the
    deviation have no entry: the next entry's rd_before shows them). Numbers only: whom
    they played is the period's `games`, and when and why it was re-rated follows from
    the periods' `causes` and the club's settings changes (`selectors.club_rerated`), so a
    re-rating rewrites no text.

    No foreign-key constraints in the database (Django still cascades deletes): a
    re-rating rewrites some 20,000 of these rows, and PostgreSQL checked three deferred
    constraints for each at commit (bench/README.md). The rows are derived from events
    that name those tournaments and players, whose rows are never deleted under them.
    Nor an index of each key alone: the two below lead with the club and with the player,
    and every read names the club; three indexes fewer to fill for each row written."""

    club = models.ForeignKey(
        "players.Club",
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    player = models.ForeignKey(
        "players.Player",
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    finished_position = models.BigIntegerField()
    finished_at = models.DateTimeField()
    rating_before = models.FloatField()
    rd_before = models.FloatField()
    volatility_before = models.FloatField()
    rating = models.FloatField()
    rd = models.FloatField()
    volatility = models.FloatField()

    class Meta:
        ordering = ["club", "player", "finished_position"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "tournament", "player"], name="ratings_entry_unique"
            )
        ]
        # A re-rating deletes a club's entries by tournament (the unique index) and writes
        # them again: one more index would be one more to maintain for every row.
        indexes = [
            models.Index(
                fields=["player", "club", "finished_position"], name="ratings_entry_player"
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s in tournament %(tournament)s: %(rating)s") % {
            "player": self.player_id,
            "tournament": self.tournament_id,
            "rating": f"{self.rating:.0f}",
        }


class Season(models.Model):
    """A named span of a club's tournaments with its own scoring. The settings are the
    organiser's; the standings (SeasonStanding) a projection of the periods."""

    TIE_ORDER = ["tournaments_won", "match_wins", "mini_table", "shared"]

    club = models.ForeignKey("players.Club", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    # The tournaments that finished on these days (in the club's time zone) count.
    starts_on = models.DateField()
    ends_on = models.DateField()
    place_points = models.JSONField(default=list)  # points for place 1, 2, ...
    participation_points = models.IntegerField(default=0)
    best_of = models.PositiveIntegerField(null=True, blank=True)  # N of "best N of M"
    tie_order = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-starts_on", "id"]

    def __str__(self) -> str:
        return self.name


class SeasonStanding(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    points = models.IntegerField()
    played = models.PositiveIntegerField()  # M: tournaments of the season played
    counted = models.JSONField(default=list)  # [{"tournament", "points", "place"}] counted
    tournaments_won = models.PositiveIntegerField(default=0)
    match_wins = models.PositiveIntegerField(default=0)
    shared = models.BooleanField(default=False)  # tied with another on every tiebreak

    class Meta:
        ordering = ["season", "rank", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="ratings_season_player")
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player_id}"
