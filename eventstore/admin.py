"""Admin: stored events are shown read-only (no add, change or delete); snapshots may be
deleted (they are a disposable cache)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from eventstore import display
from eventstore.models import Snapshot, StoredEvent, Subscription


class StreamFilter(admin.SimpleListFilter):
    """Filter by stream: offers the most recently written streams; any stream id also
    works from the URL (?stream=<stream id>)."""

    title = _("stream")
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


# Display only: the stream's label, the actor's name and the link beside an event are what
# the apps that write the streams registered (eventstore.display); the store imports no
# app of ours and shows the rest as stored.
_DATA_CHARS = 90


class StoredEventAdmin(ReadOnlyAdmin):
    """One line per event: the stream shortened (with the label its app gives it), the
    version, the type, who acted (by name), the data (cut short; in full on the event's
    page), when, and the link its app gives (a match's: the replay at that version).
    Within one stream (the stream filter, or a match's link) the oldest event comes first;
    across streams the newest."""

    list_display = (
        "position",
        "stream_short",
        "version",
        "type",
        "actor_name",
        "data_short",
        "recorded_at",
        "replay_link",
    )
    list_display_links = ("position",)
    list_filter = (StreamFilter, "type")
    search_fields = ("=stream_id", "type")
    ordering = ("-position",)
    show_full_result_count = False
    list_per_page = 200
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

    class Media:
        css = {"all": ("eventstore/admin.css",)}

    def get_ordering(self, request: HttpRequest) -> tuple[str, ...]:
        if request.GET.get(StreamFilter.parameter_name):
            return ("version",)  # a stream reads in its own order
        return ("-position",)

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> Any:
        # Names looked up once per page (a stream's label, an actor's name), not per row;
        # shared by concurrent requests at worst, and only ever names.
        self._labels: dict[str, str] = {}
        self._names: dict[str, str] = {}
        return super().changelist_view(request, extra_context)

    # -- columns ----------------------------------------------------------------------------

    def _label(self, stream_id: str) -> str:
        labels = self.__dict__.setdefault("_labels", {})
        if stream_id not in labels:
            labels[stream_id] = display.stream_label(stream_id)
        return labels[stream_id]

    @admin.display(description=_("stream"), ordering="stream_id")
    def stream_short(self, obj: StoredEvent) -> str:
        kind, _, rest = obj.stream_id.partition("-")
        short = f"{kind}-{rest[:8]}" if rest else obj.stream_id
        label = self._label(obj.stream_id)
        url = f"?{StreamFilter.parameter_name}={obj.stream_id}"
        return format_html('<a href="{}" title="{}">{}</a> {}', url, obj.stream_id, short, label)

    @admin.display(description=_("actor"))
    def actor_name(self, obj: StoredEvent) -> str:
        actor = str((obj.metadata or {}).get("actor", ""))
        names = self.__dict__.setdefault("_names", {})
        if actor not in names:
            names[actor] = display.actor_name(actor)
        return names[actor]

    @admin.display(description=_("data"))
    def data_short(self, obj: StoredEvent) -> str:
        text = json.dumps(obj.data, separators=(",", ":"), ensure_ascii=False)
        short = text if len(text) <= _DATA_CHARS else text[: _DATA_CHARS - 1] + "…"
        return format_html('<code title="{}">{}</code>', text[:2000], short)

    @admin.display(description=_("page"))
    def replay_link(self, obj: StoredEvent) -> str:
        link = display.event_link(obj.stream_id, obj.version)
        if link is None:
            return ""
        url, text = link
        return format_html('<a href="{}">{}</a>', url, text)


admin.site.register(StoredEvent, StoredEventAdmin)


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
