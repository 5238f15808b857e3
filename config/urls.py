from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from core.api import PingApi, StreamTicketApi

urlpatterns = [
    path("", include("web.urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path(
        "api/redoc/",
        SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html"),
        name="redoc",
    ),
    path("api/ping/", PingApi.as_view(), name="api-ping"),
    path("api/streams/ticket/", StreamTicketApi.as_view(), name="api-stream-ticket"),
    path("api/", include("players.urls")),
    path("api/", include("tournaments.privacy.urls")),  # erasure, a person's data (issue 34)
    path("api/", include("tournaments.ratings.urls")),  # clubs, ratings, seasons (issue 22)
    path("api/", include("tournaments.teams.urls")),  # team events (issue 39)
    path("api/", include("tournaments.federation.urls")),  # federations (issue 39)
    path("api/", include("tournaments.entries.urls")),  # calendar feeds (issue 40)
    path("api/", include("tournaments.notices.urls")),  # the caller's notices (issue 40)
    path("api/", include("games.urls")),
    path("api/tournaments/", include("tournaments.urls")),
    path("api-auth/", include("rest_framework.urls")),
]

handler400 = "core.api.bad_request"
handler404 = "core.api.not_found"
handler500 = "core.api.server_error"
