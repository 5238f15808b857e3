from django.urls import path

from tournaments.teams import apis, streams

urlpatterns = [
    path("team-events/", apis.TeamEventListApi.as_view(), name="api-team-events"),
    path("team-events/<int:event_id>/", apis.TeamEventDetailApi.as_view(), name="api-team-event"),
    path("team-events/<int:event_id>/teams/", apis.TeamListApi.as_view(), name="api-team-teams"),
    path("team-events/<int:event_id>/lineups/", apis.LineupApi.as_view(), name="api-team-lineups"),
    path(
        "team-events/<int:event_id>/rounds/",
        apis.TeamRoundPairApi.as_view(),
        name="api-team-rounds",
    ),
    path(
        "team-events/<int:event_id>/standings/",
        apis.TeamStandingsApi.as_view(),
        name="api-team-standings",
    ),
    path(
        "team-events/<int:event_id>/matches/",
        apis.TeamMatchesApi.as_view(),
        name="api-team-matches",
    ),
    path(
        "team-events/<int:event_id>/stream/",
        streams.team_event_stream,
        name="api-team-event-stream",
    ),
]
