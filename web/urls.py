from django.urls import include, path

from web.desk.phone import table_entry_page
from web.health import healthz
from web.pages import home, match_page, tournament_page
from web.play.evening import my_evening
from web.play.views import lobby, play_page, practice_new
from web.replay import match_replay_page

urlpatterns = [
    path("", home, name="home"),
    path("tournaments/<int:tournament_id>/", tournament_page, name="tournament-page"),
    path("matches/<uuid:match_id>/", match_page, name="match-page"),
    path("matches/<uuid:match_id>/replay/", match_replay_page, name="match-replay-page"),
    path("healthz", healthz, name="healthz"),
    path("desk/", include("web.desk.urls")),
    path("tables/<uuid:match_id>/", table_entry_page, name="table-entry"),
    # The players' side (web/play): the lobby, practice, the play page, my evening.
    path("play/", lobby, name="play-lobby"),
    path("play/practice/", practice_new, name="play-practice"),
    path("play/<uuid:match_id>/", play_page, name="play"),
    path("me/", my_evening, name="my-evening"),
]
