from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.http import HttpRequest

from players.models import Club, LoginCode, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "time_zone", "created_at"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers", "members"]
    # The rating settings change through the API (an event on the club's stream that
    # re-rates the club: tournaments.ratings.services); here they are shown only.
    readonly_fields = ["rating_settings"]

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "organisers":
            # People who can sign in: not the scheduler's identity (an inactive user).
            kwargs["queryset"] = get_user_model().objects.filter(is_active=True)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "club", "is_bot", "created_at"]
    list_filter = ["is_bot", "club"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user"]


@admin.register(LoginCode)
class LoginCodeAdmin(admin.ModelAdmin):
    """Who was given a phone login code, by whom, and what became of it. Read-only: codes are
    issued at the desk, and only their hash is stored (not shown here either). Deleting one
    ends it."""

    list_display = ["player", "issued_by", "issued_at", "expires_at", "used_at", "revoked_at"]
    list_filter = ["issued_at"]
    search_fields = ["player__name", "player__user__username"]
    fields = ["player", "issued_by", "issued_at", "expires_at", "used_at", "revoked_at"]
    readonly_fields = fields
    list_select_related = ["player", "issued_by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
