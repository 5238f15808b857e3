from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api import PingApi
from config.health import healthz
from config.pages import home, match_page, tournament_page

urlpatterns = [
    path("", home, name="home"),
    path("tournaments/<int:tournament_id>/", tournament_page, name="tournament-page"),
    path("matches/<uuid:match_id>/", match_page, name="match-page"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/ping/", PingApi.as_view(), name="api-ping"),
    path("api/", include("players.urls")),
    path("api/", include("games.urls")),
    path("api/tournaments/", include("tournaments.urls")),
    path("api-auth/", include("rest_framework.urls")),
]

handler404 = "config.api.not_found"
handler500 = "config.api.server_error"
