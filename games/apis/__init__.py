"""Matches API (thin: each view validates with an input serializer, calls one service or
selector and returns its dict, described for the schema by an output serializer in
games/serializers.py). `matches`: create, list, view, play, events, replay, verify, table
hands, rulings; `audit`: the audit bundle and dispute cases; `common`: what they share.
games/urls.py routes to the views by these names."""

from games.apis.audit import (
    MatchBundleApi,
    MatchBundleDeprecatedApi,
    MatchDisputeCommentApi,
    MatchDisputeResolveApi,
    MatchDisputesApi,
    OpenDisputesApi,
)
from games.apis.common import MATCH_ID, PublicMatchReadApi, SignedInOrPublicMatch
from games.apis.matches import (
    MatchActionApi,
    MatchDetailApi,
    MatchEventsApi,
    MatchHandsApi,
    MatchListApi,
    MatchReplayApi,
    MatchRulingsApi,
    MatchVerifyApi,
)

__all__ = [
    "MATCH_ID",
    "MatchActionApi",
    "MatchBundleApi",
    "MatchBundleDeprecatedApi",
    "MatchDetailApi",
    "MatchDisputeCommentApi",
    "MatchDisputeResolveApi",
    "MatchDisputesApi",
    "MatchEventsApi",
    "MatchHandsApi",
    "MatchListApi",
    "MatchReplayApi",
    "MatchRulingsApi",
    "MatchVerifyApi",
    "OpenDisputesApi",
    "PublicMatchReadApi",
    "SignedInOrPublicMatch",
]
