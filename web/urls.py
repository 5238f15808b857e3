from django.urls import path

from web.health import healthz
from web.pages import home, match_page, tournament_page

urlpatterns = [
    path("", home, name="home"),
    path("tournaments/<int:tournament_id>/", tournament_page, name="tournament-page"),
    path("matches/<uuid:match_id>/", match_page, name="match-page"),
    path("healthz", healthz, name="healthz"),
]
