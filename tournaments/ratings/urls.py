from django.urls import path

from tournaments.ratings import apis

urlpatterns = [
    path("clubs/", apis.ClubListApi.as_view(), name="api-clubs"),
    path("clubs/<int:club_id>/", apis.ClubDetailApi.as_view(), name="api-club"),
    path("clubs/<int:club_id>/members/", apis.ClubMembersApi.as_view(), name="api-club-members"),
    path("clubs/<int:club_id>/ratings/", apis.ClubRatingsApi.as_view(), name="api-club-ratings"),
    path("clubs/<int:club_id>/seasons/", apis.ClubSeasonsApi.as_view(), name="api-club-seasons"),
    path(
        "seasons/<int:season_id>/standings/",
        apis.SeasonStandingsApi.as_view(),
        name="api-season-standings",
    ),
    path(
        "seasons/<int:season_id>/standings.csv",
        apis.SeasonStandingsCsvApi.as_view(),
        name="api-season-standings-csv",
    ),
    path("players/<int:pk>/ratings/", apis.PlayerRatingsApi.as_view(), name="api-player-ratings"),
]
