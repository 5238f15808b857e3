from django.urls import path

from games import apis

# <str:match_id>: an id that is not a UUID is answered by the API's JSON 404, not Django's.
urlpatterns = [
    path("matches/", apis.MatchListApi.as_view(), name="api-matches"),
    path("matches/<str:match_id>/", apis.MatchDetailApi.as_view(), name="api-match"),
    path(
        "matches/<str:match_id>/actions/", apis.MatchActionApi.as_view(), name="api-match-actions"
    ),
    path("matches/<str:match_id>/events/", apis.MatchEventsApi.as_view(), name="api-match-events"),
    path("matches/<str:match_id>/replay/", apis.MatchReplayApi.as_view(), name="api-match-replay"),
    path("matches/<str:match_id>/verify/", apis.MatchVerifyApi.as_view(), name="api-match-verify"),
    path("matches/<str:match_id>/hands/", apis.MatchHandsApi.as_view(), name="api-match-hands"),
    path(
        "matches/<str:match_id>/rulings/", apis.MatchRulingsApi.as_view(), name="api-match-rulings"
    ),
]
