"""Admin for matches: the read models with their Hollywood scoresheet and hands. Read only:
a match changes only through events (services); rulings go through `match_rule`."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

import eventstore
from core.errors import ApplicationError
from games.audit import match_disputes
from games.models import Match, MatchHand, TableEntry
from games.selectors import match_has_preset_deals, matches_with_preset_deals
from players.models import Player


class _ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class MatchHandInline(_ReadOnly, admin.TabularInline):
    model = MatchHand
    extra = 0
    can_delete = False

    class Media:
        css = {"all": ["web/admin.css"]}  # no caption repeated above each hand

    fields = (
        "hand_number",
        "kind",
        "knocker",
        "winner",
        "points",
        "knocker_deadwood",
        "defender_deadwood",
        "games",
        "voided",
        "void_reason",
        "after_end",
        "correction_history",
        "version",
    )
    readonly_fields = fields
    ordering = ("hand_number",)

    @admin.display(description=_("corrections"))
    def correction_history(self, obj: MatchHand) -> str:
        """Each crossed-out entry: who corrected it, when and why (the match page and the
        replay show the entries in full)."""
        lines = [
            f"{c.get('by', '?')} at {c.get('at', '?')}: {c.get('reason', '')}"
            for c in obj.corrections or []
        ]
        return "; ".join(lines) or "—"


class DisputeFilter(admin.SimpleListFilter):
    """Matches with an open dispute (more `DisputeOpened` than `DisputeResolved` events in
    their stream: one grouped look-up by event type), or with any dispute (a
    `DisputeOpened`)."""

    title = "disputes"
    parameter_name = "disputes"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("open", "open"), ("any", "any")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet | None:
        if self.value() not in ("open", "any"):
            return None
        if self.value() == "open":
            streams = eventstore.streams_with_type(
                type="DisputeOpened", more_than="DisputeResolved"
            )
        else:
            streams = eventstore.streams_with_type(type="DisputeOpened")
        return queryset.filter(stream_id__in=streams)


@admin.register(Match)
class MatchAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = (
        "__str__",
        "mode",
        "status",
        "hand_number",
        "games_score",
        "points_p1",
        "points_p2",
        "winner",
        "deals_chosen",
        "created_at",
    )
    list_filter = ("status", "mode", "practice", "finish_reason", DisputeFilter)
    search_fields = ("=id", "player1__name", "player2__name", "label")
    list_select_related = ("player1", "player2", "winner")
    date_hierarchy = "created_at"
    inlines = [MatchHandInline]
    readonly_fields = (
        "id",
        "deals_chosen",
        "links",
        "dispute_cases",
        "stream_id",
        "events_link",
        "player1",
        "player2",
        "label",
        "mode",
        "status",
        "ruleset_table",
        "version",
        "hand_number",
        "phase",
        "turn_player",
        "scoresheet_table",
        "winner",
        "finish_reason",
        "created_by",
        "organisers",
        "created_at",
        "last_action_at",
        "finished_at",
    )
    fields = readonly_fields

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        # Viewing needs view permission only; nothing is editable in place.
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # One EXISTS per row of the list, rather than one query per row for the column.
        return matches_with_preset_deals(super().get_queryset(request))

    @admin.display(
        description=_("deals chosen by the organiser"), boolean=True, ordering="preset_deals"
    )
    def deals_chosen(self, obj: Match) -> bool:
        """A seed or decks given at creation: not a fair random deal (never a tournament's)."""
        return match_has_preset_deals(match=obj)

    def change_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        self._viewer = request.user  # the disputes are shown as this viewer may see them
        return super().change_view(request, *args, **kwargs)

    @admin.display(description=_("disputes"))
    def dispute_cases(self, obj: Match) -> str:
        """Each dispute: who opened it on which hand, the statement, its status and answer,
        with the replay at the dispute (organisers answer on the desk or through the API)."""
        viewer = getattr(self, "_viewer", None)
        try:
            cases = match_disputes(match=obj, user=viewer) if viewer is not None else []
        except ApplicationError:  # a viewer who may not see them
            return "-"
        names = {obj.player1_id: obj.player1.name, obj.player2_id: obj.player2.name}
        rows = [
            (
                c["dispute"],
                names.get(c["player"], "?"),
                "the match" if c["hand_number"] is None else f"hand {c['hand_number']}",
                c["statement"],
                c["status"] + (f" by {c['by']}: {c['reason']}" if c["by"] else ""),
                reverse("match-replay-page", kwargs={"match_id": obj.pk})
                + f"?version={c['version']}",
            )
            for c in cases
        ]
        if not rows:
            return "none"
        return format_html_join(
            "",
            '<p>#{} by {} on {}: “{}” — <strong>{}</strong> · <a href="{}">replay</a></p>',
            rows,
        )

    @admin.display(description=_("pages"))
    def links(self, obj: Match) -> str:
        """The match's page, its replay and, for a tournament match, its desk page."""
        names = [
            ("match-page", "scoresheet page"),
            ("match-replay-page", "replay"),
            ("desk-match", "desk (results at the table)"),
        ]
        found = []
        for name, label in names:
            try:
                found.append((reverse(name, kwargs={"match_id": obj.pk}), label))
            except NoReverseMatch:  # the pages are not installed
                continue
        return format_html_join(" · ", '<a href="{}">{}</a>', found) or "-"

    @admin.display(description=_("ruleset"))
    def ruleset_table(self, obj: Match) -> str:
        rows = sorted((obj.ruleset or {}).items())
        if not rows:
            return "-"
        body = format_html_join(
            "", "<tr><th>{}</th><td>{}</td></tr>", ((k.replace("_", " "), v) for k, v in rows)
        )
        return format_html("<table>{}</table>", body)

    @admin.display(description=_("games"))
    def games_score(self, obj: Match) -> str:
        return f"{obj.games_won_p1}-{obj.games_won_p2}"

    @admin.display(description=_("events"))
    def events_link(self, obj: Match) -> str:
        url = reverse("admin:eventstore_storedevent_changelist") + f"?stream={obj.stream_id}"
        return format_html('<a href="{}">{} events</a>', url, obj.version)

    @admin.display(description=_("scoresheet"))
    def scoresheet_table(self, obj: Match) -> str:
        games = (obj.scoresheet or {}).get("games", [])
        if not games:
            return "-"
        names = (obj.player1.name, obj.player2.name)

        def winner(g: dict) -> str:
            if g["winner"] is None:
                return pgettext("game", "open")
            return gettext("won by %(name)s") % {"name": names[g["winner"]]}

        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    gettext("Game %(n)s") % {"n": g["game"]},
                    g["totals"][0],
                    g["totals"][1],
                    winner(g),
                )
                for g in games
            ),
        )
        return format_html(
            "<table><tr><th></th><th>{}</th><th>{}</th><th></th></tr>{}"
            "<tr><th>{}</th><th>{}</th><th>{}</th><th></th></tr></table>",
            names[0],
            names[1],
            rows,
            gettext("Games won"),
            obj.games_won_p1,
            obj.games_won_p2,
        )


@admin.register(TableEntry)
class TableEntryAdmin(_ReadOnly, admin.ModelAdmin):
    """Hands entered on players' phones: confirmed, disputed, settled. They change only
    through games.services.table_entries (the desk and the players' table page)."""

    list_display = ("match", "__str__", "entered_by", "status", "decided_by", "created_at")
    list_filter = ("status",)
    list_select_related = ("match__player1", "match__player2", "entered_by", "knocker")
    search_fields = ("=match__id", "entered_by__name")


# -- the event store's admin: how it names and links the matches' streams and players ------

_STREAM_PREFIX = "match-"


def _match_stream_label(stream_id: str) -> str:
    """The match's label, else "<player 1> v <player 2>"."""
    row = Match.objects.filter(stream_id=stream_id).select_related("player1", "player2").first()
    if row is None:
        return ""
    return row.label or gettext("%(first)s v %(second)s") % {
        "first": row.player1,
        "second": row.player2,
    }


def _match_event_link(stream_id: str, version: int) -> tuple[str, str] | None:
    """The replay page at the event's version (None when the pages are not installed)."""
    try:
        url = reverse("match-replay-page", args=[stream_id.removeprefix(_STREAM_PREFIX)])
    except NoReverseMatch:
        return None
    return f"{url}?version={version}", gettext("replay at v%(version)s") % {"version": version}


def _player_name(pk: str) -> str | None:
    return Player.objects.filter(pk=pk).values_list("name", flat=True).first()


eventstore.stream_display_register(
    prefix=_STREAM_PREFIX, label=_match_stream_label, event_link=_match_event_link
)
eventstore.actor_display_register(kind="player", name=_player_name)
