"""Webhooks in the Django admin: endpoints (saved through the services; the secret shown
once, in a message, when created or rotated) and their delivery log, read-only, with the
redelivery actions. Registered by `tournaments.admin`."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.admin import ServiceAdmin
from core.errors import refusals, translated_message
from tournaments.domain import EVENT_TYPES
from tournaments.webhooks import guard, services
from tournaments.webhooks.models import Delivery, WebhookEndpoint


class WebhookEndpointForm(forms.ModelForm):
    url = forms.URLField(max_length=2000, assume_scheme="https")
    event_types = forms.MultipleChoiceField(
        choices=[(t, t) for t in EVENT_TYPES],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Event types"),
        help_text=_("None ticked: every type."),
    )
    rotate_secret = forms.BooleanField(
        required=False,
        label=_("Rotate secret"),
        help_text=_("Make a new secret (shown once, after saving)."),
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["tournament", "url", "event_types", "description", "is_active"]

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        try:
            guard.url_check(url)
        except guard.WebhookUrlError as exc:
            raise forms.ValidationError(translated_message(exc)) from exc
        return url


class RedeliverFromForm(forms.Form):
    from_position = forms.IntegerField(
        min_value=1,
        label=_("From position"),
        help_text=_("The event's position (version) in the tournament's stream."),
    )


def _call(request: HttpRequest, what: str, fn: Any, **kwargs: Any) -> Any:
    """Run a service and turn its domain error into an admin message."""
    try:
        return fn(by=request.user, **kwargs)
    except refusals() as exc:
        message = translated_message(exc)
        messages.error(
            request, gettext("%(action)s: %(error)s") % {"action": what, "error": message}
        )
        return None


def _secret_shown_once(request: HttpRequest, written: Any) -> None:
    if written is not None and written.secret:
        messages.warning(
            request,
            gettext("Signing secret of %(url)s, shown this once: %(secret)s")
            % {"url": written.endpoint.url, "secret": written.secret},
        )


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(ServiceAdmin):
    form = WebhookEndpointForm
    list_display = ["url", "tournament", "is_active", "cursor", "secret_prefix", "log"]
    list_filter = ["is_active"]
    search_fields = ["url", "tournament__name"]
    readonly_fields = ["secret_prefix", "cursor", "created_by", "created_at", "log"]
    actions = ["redeliver_from_position"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = ["tournament", "url", "event_types", "description", "is_active"]
        if obj is None:
            return fields
        return [*fields, "rotate_secret", *self.readonly_fields]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*self.readonly_fields, "tournament"] if obj is not None else []

    @admin.display(description=_("delivery log"))
    def log(self, obj: WebhookEndpoint) -> str:
        if obj.pk is None:
            return "-"
        url = reverse("admin:tournaments_delivery_changelist") + f"?endpoint__id__exact={obj.pk}"
        return format_html('<a href="{}">deliveries</a>', url)

    def save_model(
        self, request: HttpRequest, obj: WebhookEndpoint, form: Any, change: bool
    ) -> None:
        data = form.cleaned_data
        if change:
            written = _call(
                request,
                f"{obj.url}",
                services.webhook_update,
                tournament_id=obj.tournament_id,
                webhook_id=obj.pk,
                url=data["url"],
                event_types=data["event_types"],
                description=data["description"],
                is_active=data["is_active"],
                rotate_secret=data.get("rotate_secret", False),
            )
            _secret_shown_once(request, written)
            obj.refresh_from_db()
            return
        written = _call(
            request,
            f"{obj.url}",
            services.webhook_create,
            tournament_id=data["tournament"].pk,
            url=data["url"],
            event_types=data["event_types"],
            description=data["description"],
        )
        _secret_shown_once(request, written)
        if written is not None:
            obj.pk = written.endpoint.pk
            obj.refresh_from_db()

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """No related rows are edited here (the services saved everything)."""

    def delete_model(self, request: HttpRequest, obj: WebhookEndpoint) -> None:
        _call(
            request,
            f"delete {obj.url}",
            services.webhook_delete,
            tournament_id=obj.tournament_id,
            webhook_id=obj.pk,
        )

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        # The delivery log is read-only on its own, and goes with its endpoint.
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, perms_needed - {str(Delivery._meta.verbose_name)}, protected

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[WebhookEndpoint]) -> None:
        for obj in queryset:
            self.delete_model(request, obj)

    @admin.action(description=_("Redeliver from a position…"))
    def redeliver_from_position(
        self, request: HttpRequest, queryset: QuerySet[WebhookEndpoint]
    ) -> HttpResponse | None:
        if queryset.count() != 1:
            messages.error(request, gettext("Choose exactly one endpoint."))
            return None
        endpoint = queryset.get()
        form = RedeliverFromForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            queued = _call(
                request,
                gettext("redeliver to %(url)s") % {"url": endpoint.url},
                services.webhook_redeliver_from,
                tournament_id=endpoint.tournament_id,
                webhook_id=endpoint.pk,
                from_position=form.cleaned_data["from_position"],
            )
            if queued is not None:
                messages.success(
                    request,
                    ngettext(
                        "%(count)s delivery queued for %(url)s",
                        "%(count)s deliveries queued for %(url)s",
                        queued,
                    )
                    % {"count": queued, "url": endpoint.url},
                )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Redeliver to %(url)s") % {"url": endpoint.url},
            "form": form,
            "endpoint": endpoint,
            "action": "redeliver_from_position",
            "opts": self.model._meta,
        }
        return render(request, "admin/tournaments/webhook_redeliver_from.html", context)


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    """The delivery log: read-only; "Redeliver" sends the chosen ones again."""

    list_display = [
        "event_position", "event_type", "endpoint", "status", "attempts", "last_status_code",
        "last_latency_ms", "next_attempt_at", "delivered_at",
    ]  # fmt: skip
    list_filter = ["status", "event_type", "endpoint__tournament"]
    readonly_fields = [f.name for f in Delivery._meta.fields if f.name not in ("lease",)]
    exclude = ["lease"]
    actions = ["redeliver"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Delivery]:
        return super().get_queryset(request).select_related("endpoint")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a log: no Save button

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description=_("Redeliver (a fresh count of attempts)"))
    def redeliver(self, request: HttpRequest, queryset: QuerySet[Delivery]) -> None:
        done = 0
        for delivery in queryset.select_related("endpoint"):
            if _call(
                request,
                gettext("redeliver #%(position)s") % {"position": delivery.event_position},
                services.delivery_redeliver,
                tournament_id=delivery.endpoint.tournament_id,
                webhook_id=delivery.endpoint_id,
                delivery_id=delivery.pk,
            ):
                done += 1
        messages.success(
            request,
            ngettext("%(count)s delivery queued again", "%(count)s deliveries queued again", done)
            % {"count": done},
        )
