from django.contrib import admin

from players.models import Club, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "club", "is_bot", "rating", "created_at"]
    list_filter = ["is_bot", "club"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user"]
