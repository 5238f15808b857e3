from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.http import HttpRequest

from players.models import Club, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "organisers":
            # People who can sign in: not the scheduler's identity (an inactive user).
            kwargs["queryset"] = get_user_model().objects.filter(is_active=True)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "club", "is_bot", "rating", "created_at"]
    list_filter = ["is_bot", "club"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user"]
