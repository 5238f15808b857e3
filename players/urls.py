from django.urls import path

from players import apis

urlpatterns = [
    path("auth/token/", apis.TokenApi.as_view(), name="api-token"),
    path("auth/token/refresh/", apis.TokenRefreshApi.as_view(), name="api-token-refresh"),
    path("auth/tokens/", apis.TokenListApi.as_view(), name="api-tokens"),
    path("auth/tokens/<int:token_id>/", apis.TokenDetailApi.as_view(), name="api-token-detail"),
    path("players/", apis.PlayerListApi.as_view(), name="api-players"),
    path("players/<int:pk>/", apis.PlayerDetailApi.as_view(), name="api-player"),
    path("me/", apis.MeApi.as_view(), name="api-me"),
]
