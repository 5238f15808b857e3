"""Admin plumbing shared by the apps, and the kernel's alerts and heartbeats (read-only:
written by the app, closed by hand)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.models import Alert, Heartbeat
from core.transactions import request_transaction


class ServiceAdmin(admin.ModelAdmin):
    """A model admin whose saves go through write services. Django runs the add/change and
    delete views in a transaction of its own; here that transaction is the request's unit
    of work (`request_transaction`), which the services join instead of nesting in it."""

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        with request_transaction():
            return self._changeform_view(request, object_id, form_url, extra_context)

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        with request_transaction():
            return self._delete_view(request, object_id, extra_context)


@admin.register(Alert)
class AlertAdmin(admin.ModelAdmin):
    """What the desk's banner and the e-mails said (core.alerts); close one once handled."""

    list_display = ("raised_at", "kind", "tournament_id", "key", "resolved_at")
    list_filter = ("kind", ("resolved_at", admin.EmptyFieldListFilter))
    readonly_fields = ("kind", "key", "tournament_id", "params", "raised_at", "resolved_at")
    actions = ["resolve"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Close the selected alerts"))
    def resolve(self, request: HttpRequest, queryset: Any) -> None:
        queryset.filter(resolved_at__isnull=True).update(resolved_at=timezone.now())


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    """When beat and each worker last said they were alive (core.heartbeats)."""

    list_display = ("name", "beat_at")
    readonly_fields = ("name", "beat_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
