"""Admin plumbing shared by the apps (no models of its own are registered here)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

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
