from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from web.clubs import club_page, season_page
from web.desk.phone import table_entry_page, table_short
from web.health import livez, metrics_view, readyz
from web.language import language_set
from web.manual import manual, players_help
from web.pages import home, match_page, tournament_page
from web.play import entries
from web.play.captain import captain_page
from web.play.evening import my_evening
from web.play.views import lobby, play_page, practice_new
from web.players_pages import player_page, player_visibility
from web.replay import match_replay_page
from web.team_events import team_event_public

urlpatterns = [
    path("", home, name="home"),
    path("tournaments/<int:tournament_id>/", tournament_page, name="tournament-page"),
    # The same page on the wall screen: the tournament's language, whoever's browser.
    path(
        "tournaments/<int:tournament_id>/wall/",
        tournament_page,
        {"wall": True},
        name="tournament-wall",
    ),
    path("matches/<uuid:match_id>/", match_page, name="match-page"),
    path("matches/<uuid:match_id>/replay/", match_replay_page, name="match-replay-page"),
    path("clubs/<slug:slug>/", club_page, name="club-page"),
    path("team-events/<int:event_id>/", team_event_public, name="team-event-page"),
    path(
        "team-events/<int:event_id>/wall/",
        team_event_public,
        {"wall": True},
        name="team-event-wall",
    ),
    path("clubs/<slug:slug>/seasons/<int:season_id>/", season_page, name="season-page"),
    path("players/<int:player_id>/", player_page, name="player-page"),
    path("players/<int:player_id>/visibility/", player_visibility, name="player-visibility"),
    path("livez", livez, name="livez"),
    path("readyz", readyz, name="readyz"),
    path("healthz", readyz, name="healthz"),  # the older name of /readyz
    path("metrics", metrics_view, name="metrics"),
    path("language/", language_set, name="language-set"),
    # The replay's words (static/replay/*.js: gettext, interpolate), from locale/*/djangojs.po.
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["web"]), name="javascript-catalog"),
    path("desk/", include("web.desk.urls")),
    path("tables/<uuid:match_id>/", table_entry_page, name="table-entry"),
    # The table slip's short address, typed on a phone that cannot scan the QR code.
    path("t/<int:tournament_id>/<int:number>/<int:table>/", table_short, name="table-short"),
    # The players' side (web/play): the lobby, practice, the play page, my evening.
    path("play/", lobby, name="play-lobby"),
    path("play/practice/", practice_new, name="play-practice"),
    path("play/<uuid:match_id>/", play_page, name="play"),
    path("me/", my_evening, name="my-evening"),
    path("me/teams/<int:event_id>/", captain_page, name="my-team"),
    path("me/entries/", entries.my_entries, name="my-entries"),
    path("me/entries/notices/", entries.my_notice_kinds, name="my-notice-kinds"),
    path("me/entries/calendar/", entries.my_calendar_renew, name="my-calendar-renew"),
    path(
        "me/entries/<int:tournament_id>/<slug:action>/", entries.my_entry_act, name="my-entry-act"
    ),
    # The players' help (translated) and the manual (docs/, built into site/ by make install).
    path("help/", players_help, name="players-help"),
    path("docs/", manual, name="manual"),
    path("docs/<path:path>", manual, name="manual-page"),
]
