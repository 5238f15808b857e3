from django.urls import path

from games import apis, streams
from games.apis import practice as practice_apis

# <str:match_id>: an id that is not a UUID is answered by the API's JSON 404, not Django's.
urlpatterns = [
    path("matches/", apis.MatchListApi.as_view(), name="api-matches"),
    path("matches/<str:match_id>/", apis.MatchDetailApi.as_view(), name="api-match"),
    path(
        "matches/<str:match_id>/actions/", apis.MatchActionApi.as_view(), name="api-match-actions"
    ),
    path("matches/<str:match_id>/events/", apis.MatchEventsApi.as_view(), name="api-match-events"),
    path("matches/<str:match_id>/stream/", streams.match_stream, name="api-match-stream"),
    path("matches/<str:match_id>/replay/", apis.MatchReplayApi.as_view(), name="api-match-replay"),
    path("matches/<str:match_id>/verify/", apis.MatchVerifyApi.as_view(), name="api-match-verify"),
    path("matches/<str:match_id>/hands/", apis.MatchHandsApi.as_view(), name="api-match-hands"),
    path(
        "matches/<str:match_id>/rulings/", apis.MatchRulingsApi.as_view(), name="api-match-rulings"
    ),
    # The audit bundle (/bundle/: its earlier name, kept for links) and dispute cases.
    path("matches/<str:match_id>/audit/", apis.MatchBundleApi.as_view(), name="api-match-audit"),
    path(
        "matches/<str:match_id>/bundle/",
        apis.MatchBundleDeprecatedApi.as_view(),
        name="api-match-bundle",
    ),
    path(
        "matches/<str:match_id>/disputes/",
        apis.MatchDisputesApi.as_view(),
        name="api-match-disputes",
    ),
    path(
        "matches/<str:match_id>/disputes/<int:dispute>/comments/",
        apis.MatchDisputeCommentApi.as_view(),
        name="api-match-dispute-comments",
    ),
    path(
        "matches/<str:match_id>/disputes/<int:dispute>/resolve/",
        apis.MatchDisputeResolveApi.as_view(),
        name="api-match-dispute-resolve",
    ),
    path("disputes/", apis.OpenDisputesApi.as_view(), name="api-disputes-open"),
    path("practice/", practice_apis.PracticeStartApi.as_view(), name="api-practice"),
]
