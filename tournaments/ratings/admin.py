"""Admin of the ratings: the projections read-only (they follow from the events), seasons
editable (their standings recomputed on save)."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from django.contrib import admin
from django.http import HttpRequest

from tournaments.ratings.models import ClubRating, RatingEntry, Season, SeasonStanding
from tournaments.ratings.projection import club_lock
from tournaments.ratings.seasons import season_refresh_in_tx


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ClubRating)
class ClubRatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "club", "rating", "rd", "volatility", "matches", "periods"]
    list_filter = ["club"]
    search_fields = ["player__name"]
    list_select_related = ["player", "club"]


@admin.register(RatingEntry)
class RatingEntryAdmin(ReadOnlyAdmin):
    list_display = ["player", "club", "tournament", "rating_before", "rating", "rd", "finished_at"]
    list_filter = ["club"]
    search_fields = ["player__name", "tournament__name"]
    list_select_related = ["player", "club", "tournament"]


class SeasonStandingInline(admin.TabularInline):
    model = SeasonStanding
    fields = ["rank", "player", "points", "played", "tournaments_won", "match_wins", "shared"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "best_of"]
    list_filter = ["club"]
    inlines = [SeasonStandingInline]

    def save_model(self, request: HttpRequest, obj: Season, form: Any, change: bool) -> None:
        # Inside the admin's own transaction (its change form is atomic).
        super().save_model(request, obj, form, change)
        club_lock(club_id=obj.club_id)
        season_refresh_in_tx(season=obj, zone=ZoneInfo(obj.club.time_zone or "UTC"))
