"""Admin: stored events are shown read-only (no add, change or delete); snapshots may be
deleted (they are a disposable cache)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from eventstore.models import Snapshot, StoredEvent, Subscription


class StreamFilter(admin.SimpleListFilter):
    """Filter by stream: offers the most recently written streams; any stream id also
    works from the URL (?stream=match-<uuid>)."""

    title = "stream"
    parameter_name = "stream"
    RECENT = 25

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list:
        recent: list[str] = []
        for stream_id in StoredEvent.objects.order_by("-position").values_list(
            "stream_id", flat=True
        )[: self.RECENT * 20]:
            if stream_id not in recent:
                recent.append(stream_id)
            if len(recent) == self.RECENT:
                break
        value = self.value()
        if value and value not in recent:
            recent.insert(0, value)
        return [(stream_id, stream_id) for stream_id in recent]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        return queryset.filter(stream_id=value) if value else queryset


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(StoredEvent)
class StoredEventAdmin(ReadOnlyAdmin):
    list_display = ("position", "stream_id", "version", "type", "schema_version", "recorded_at")
    list_filter = (StreamFilter, "type")
    search_fields = ("=stream_id", "type")
    ordering = ("-position",)
    show_full_result_count = False
    readonly_fields = (
        "position",
        "stream_id",
        "version",
        "type",
        "schema_version",
        "data",
        "metadata",
        "recorded_at",
        "hash",
        "tx_id",
    )
    fields = readonly_fields


@admin.register(Snapshot)
class SnapshotAdmin(admin.ModelAdmin):
    list_display = ("stream_id", "kind", "version", "created_at")
    list_filter = ("kind",)
    search_fields = ("=stream_id",)
    readonly_fields = ("stream_id", "kind", "version", "state", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Subscription)
class SubscriptionAdmin(ReadOnlyAdmin):
    list_display = ("name", "position", "updated_at")
