from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from core.api import PingApi

urlpatterns = [
    path("", include("web.urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/ping/", PingApi.as_view(), name="api-ping"),
    path("api/", include("players.urls")),
    path("api/", include("games.urls")),
    path("api/tournaments/", include("tournaments.urls")),
    path("api-auth/", include("rest_framework.urls")),
]

handler404 = "core.api.not_found"
handler500 = "core.api.server_error"
