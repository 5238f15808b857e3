from django.urls import path

from tournaments.privacy import apis

urlpatterns = [
    path("players/<int:pk>/erase/", apis.PlayerEraseApi.as_view(), name="api-player-erase"),
    path("me/data/", apis.MyDataApi.as_view(), name="api-me-data"),
]
