"""Tournaments in the Django admin. Rows are read-only here; every change goes through the
same services as the API (admin actions), so every decision is an event in the stream."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.admin import ServiceAdmin
from core.errors import application_error, refusals, translated_message
from core.text import FreeTextField
from games.errors import RuleError
from players.admin import PlayerAdmin
from players.models import Player
from tournaments import services
from tournaments.admin_forms import TIEBREAK_SLOTS, TournamentAdminForm
from tournaments.models import Pairing, Registration, Round, Standing, Tournament
from tournaments.privacy.services import player_erase
from tournaments.projections import standings_rebuild
from tournaments.selectors import pairing_overdue

admin.site.site_header = _("Hollywood Gin administration")
admin.site.site_title = _("Hollywood Gin admin")
admin.site.index_title = _("Clubs, players, tournaments and matches")


class _ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    class Media:
        # Hides the caption Django repeats on every row ("Anna in Tuesday Swiss").
        css = {"all": ["web/admin.css"]}

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RegistrationInline(_ReadOnlyInline):
    model = Registration
    fields = ["player", "status", "seed", "late", "registered_at", "checked_in_at"]
    readonly_fields = fields


class RoundInline(_ReadOnlyInline):
    model = Round
    show_change_link = True  # a round's page lists its pairings
    fields = ["number", "status", "scheduled_at", "paired_at", "deadline", "completed_at"]
    readonly_fields = fields


class StandingInline(_ReadOnlyInline):
    model = Standing
    fields = ["rank", "player", "match_wins", "games_won", "points_diff", "buchholz", "withdrawn"]
    readonly_fields = fields


class PlayerChoiceForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.none())
    reason = FreeTextField(required=True)
    forfeit_current = forms.BooleanField(
        required=False, label=_("Forfeit current"), help_text=_("Forfeit a match in play.")
    )


def _call(request: HttpRequest, what: str, fn: Any, **kwargs: Any) -> Any:
    """Run a service and turn its domain error into an admin message."""
    try:
        result = fn(by=request.user, **kwargs)
    except (*refusals(), RuleError) as exc:
        message = translated_message(exc)
        messages.error(
            request, gettext("%(action)s: %(error)s") % {"action": what, "error": message}
        )
        return None
    messages.success(request, gettext("%(action)s: done") % {"action": what})
    return result


@admin.register(Tournament)
class TournamentAdmin(ServiceAdmin):
    form = TournamentAdminForm
    list_display = ["name", "club", "format", "status", "current_round", "rounds_planned"]
    list_filter = ["format", "status", "play_mode", "club"]
    search_fields = ["name"]
    filter_horizontal = ["organisers"]
    inlines = [RegistrationInline, RoundInline, StandingInline]
    readonly_fields = [
        "desk_link", "status", "current_round", "version", "created_by", "finished_at",
    ]  # fmt: skip
    fieldsets = [
        (None, {"fields": ["desk_link", "name", "club", "organisers", "is_public"]}),
        (
            _("Format and schedule (times in the tournament's time zone)"),
            {
                "fields": [
                    "format", "rounds_planned", "play_mode", "check_in_required", "time_zone",
                    "language", "starts_at", "round_starts_text", "round_interval",
                    "round_duration", "turn_time", "dispute_window",
                ]
            },
        ),
        (_("Ruleset"), {"fields": list(TournamentAdminForm.RULESET_FIELDS)}),
        (_("Standings"), {"fields": [f"tiebreak_{n}" for n in range(1, TIEBREAK_SLOTS + 1)]}),
        (_("State"), {
            "fields": ["status", "current_round", "version", "created_by", "finished_at"]
        }),
    ]  # fmt: skip
    actions = [
        "start_tournament",
        "pair_next_round",
        "repair_current_round",
        "withdraw_player",
        "rebuild_standings",
        "take_results",
    ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # The format and the rounds shape the pairings already made: fixed once created;
        # round starts are set when the tournament is created.
        fixed = ["format", "rounds_planned", "check_in_required"] if obj is not None else []
        return [*self.readonly_fields, *fixed]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:  # nothing to show yet
            drop = {"desk_link", "status", "current_round", "version", "created_by"}
            drop |= {"finished_at"}
        else:
            drop = {"round_starts_text"}
        return [
            (name, {**opts, "fields": [f for f in opts["fields"] if f not in drop]})
            for name, opts in fieldsets
            if [f for f in opts["fields"] if f not in drop]
        ]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kw: Any):
        # The fieldsets name the form's own fields (ruleset, tiebreaks, round starts) too;
        # the model form is built from the model's fields only.
        kw["fields"] = None
        return super().get_form(request, obj, change=change, **kw)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Every time on the page is entered and shown in the tournament's time zone (the
        one being chosen, on a submitted form), and stored in UTC."""
        zone = request.POST.get("time_zone") if request.method == "POST" else None
        if not zone and object_id:
            zone = (
                Tournament.objects.filter(pk=object_id).values_list("time_zone", flat=True).first()
            )
        try:
            tz = ZoneInfo(zone or "UTC")
        except (ValueError, KeyError):  # ZoneInfoNotFoundError is a KeyError
            tz = ZoneInfo("UTC")
        with timezone.override(tz):
            response = super().changeform_view(request, object_id, form_url, extra_context)
            if hasattr(response, "render"):
                response.render()  # the times are formatted now, in the zone
            return response

    @admin.display(description=_("desk"))
    def desk_link(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "-"
        url = reverse("desk-tournament", kwargs={"tournament_id": obj.pk})
        public = reverse("tournament-page", kwargs={"tournament_id": obj.pk})
        return format_html(
            '<a href="{}">the organiser\'s desk</a> · <a href="{}">public page</a>', url, public
        )

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        if not change:
            form.instance.organisers.add(request.user)  # the form's choice must not drop them

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            # Settings go through the service: one SettingsChanged event, refused where
            # the tournament has started and the setting may no longer change.
            changes = form.settings_changed()
            _call(
                request,
                f"{obj} settings",
                services.tournament_settings_change,
                tournament_id=obj.pk,
                changes=changes,
                reason="changed in the admin",
            )
            obj.refresh_from_db()
            return
        created = services.tournament_create(
            name=obj.name,
            format=obj.format,
            created_by=request.user,
            club=obj.club,
            ruleset=form.cleaned_data["ruleset"],
            rounds=obj.rounds_planned,
            starts_at=obj.starts_at,
            round_starts=form.cleaned_data.get("round_starts") or (),
            round_interval=obj.round_interval,
            round_duration=obj.round_duration,
            turn_time=obj.turn_time,
            dispute_window=obj.dispute_window,
            play_mode=obj.play_mode,
            is_public=obj.is_public,
            check_in_required=obj.check_in_required,
            time_zone=obj.time_zone,
            language=obj.language or None,  # none named: its club's
            tiebreaks=form.cleaned_data["tiebreaks"] or None,
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    @admin.action(description=_("Start the tournament (pair round 1)"))
    def start_tournament(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            _call(request, f"{t} start", services.tournament_start, tournament_id=t.pk)

    @admin.action(description=_("Pair the next round now"))
    def pair_next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            done = _call(
                request,
                gettext("%(tournament)s round %(round)s")
                % {"tournament": t, "round": t.current_round + 1},
                services.tournament_round_pair,
                tournament_id=t.pk,
                round_number=t.current_round + 1,
                reason="paired from the admin",
            )
            if done is None:
                messages.warning(
                    request,
                    gettext("%(tournament)s: round %(round)s was not paired")
                    % {"tournament": t, "round": t.current_round + 1},
                )

    @admin.action(description=_("Re-pair the current round (before any match has started)"))
    def repair_current_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            _call(
                request,
                gettext("%(tournament)s round %(round)s re-paired")
                % {"tournament": t, "round": t.current_round},
                services.tournament_round_repair,
                tournament_id=t.pk,
                round_number=t.current_round,
                reason="re-paired from the admin",
            )

    @admin.action(description=_("Withdraw a player"))
    def withdraw_player(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse | None:
        if queryset.count() != 1:
            messages.error(request, gettext("Choose exactly one tournament."))
            return None
        tournament = queryset.get()
        form = PlayerChoiceForm(request.POST if "apply" in request.POST else None)
        form.fields["player"].queryset = Player.objects.filter(
            registrations__tournament=tournament
        ).exclude(registrations__status=Registration.Status.WITHDRAWN)
        if "apply" in request.POST and form.is_valid():
            _call(
                request,
                gettext("withdraw %(player)s") % {"player": form.cleaned_data["player"]},
                services.tournament_withdraw,
                tournament_id=tournament.pk,
                player=form.cleaned_data["player"],
                reason=form.cleaned_data["reason"],
                forfeit_current=form.cleaned_data["forfeit_current"],
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Withdraw a player from %(tournament)s") % {"tournament": tournament},
            "form": form,
            "tournament": tournament,
            "action": "withdraw_player",
            "opts": self.model._meta,
        }
        return render(request, "admin/tournaments/withdraw_player.html", context)

    @admin.action(description=_("Take the results from finished matches (a stuck round)"))
    def take_results(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            taken = _call(
                request,
                gettext("%(tournament)s results taken") % {"tournament": t},
                services.tournament_results_take,
                tournament_id=t.pk,
            )
            if taken == []:
                messages.info(
                    request,
                    gettext("%(tournament)s: no finished match was waiting") % {"tournament": t},
                )

    @admin.action(description=_("Rebuild standings from events"))
    def rebuild_standings(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            standings_rebuild(tournament=t)
        messages.success(request, gettext("Standings rebuilt from the events."))


class PairingInline(_ReadOnlyInline):
    model = Pairing
    fields = ["table", "player1", "player2", "status", "winner", "games1", "games2", "match"]
    readonly_fields = fields


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "paired_at", "deadline"]
    list_filter = ["status", "tournament"]
    readonly_fields = [f.name for f in Round._meta.fields]
    inlines = [PairingInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a read model: no Save button where nothing can change

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = [
        "round", "table", "player1", "player2", "status", "overdue", "winner", "match"
    ]  # fmt: skip
    list_filter = ["status", "round__tournament"]
    readonly_fields = [f.name for f in Pairing._meta.fields]

    @admin.display(boolean=True, description=_("overdue"))
    def overdue(self, obj: Pairing) -> bool:
        """Unplayed past the round's deadline: a table match waits for an organiser."""
        return pairing_overdue(pairing=obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a read model: no Save button where nothing can change

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# Webhook endpoints and their delivery log (tournaments/webhooks/admin.py registers them).
from tournaments.webhooks import admin as webhooks_admin  # noqa: E402, F401

# --- erasing a player (issue 34): an action on the players' list ----------------------------
# Registered here, not in players.admin: the erasure reaches matches and tournaments, which
# the players app may not import (the layers in pyproject.toml).


@admin.action(description=_("Erase the selected players (cannot be undone)"))
def erase_players(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    for player in queryset.order_by("pk"):
        try:
            player_erase(player_id=player.pk, by=request.user, reason="admin")
        except refusals() as exc:
            error = application_error(exc)
            modeladmin.message_user(request, f"#{player.pk}: {error}", messages.ERROR)
        else:
            modeladmin.message_user(
                request, gettext("Erased player #%(number)s") % {"number": player.pk}
            )


class ErasingPlayerAdmin(PlayerAdmin):
    actions = [erase_players]
    list_display = [*PlayerAdmin.list_display, "erased_at"]


admin.site.unregister(Player)
admin.site.register(Player, ErasingPlayerAdmin)
