"""Events -> read models. The same functions serve the incremental path (inside the
service's transaction, for the events it just appended: `incremental`) and
`rebuild_projections` (for every event of every match: `rebuild`), so both give exactly the
same rows. `summary` makes the match row, `hands` its hand rows. Every name below may be
imported from `games.projections` itself."""

from games.projections.hands import (
    HAND_FIELDS,
    REDERIVE_EVENT_TYPES,
    hands_fold,
    hands_rederive,
    unfinished_hand_row,
)
from games.projections.incremental import MatchProjection, match_project
from games.projections.rebuild import (
    HAND_EVENT_TYPES,
    STREAM_PREFIX,
    RebuildResult,
    match_rebuild,
    match_rows,
    projections_rebuild,
    streams_rebuild,
)
from games.projections.summary import (
    FINISH_EVENT_TYPES,
    SUMMARY_FIELDS,
    TURN_FIELDS,
    match_from_registration,
    match_registration,
    match_summarise,
    match_summary_statement,
)

__all__ = [
    "FINISH_EVENT_TYPES",
    "HAND_EVENT_TYPES",
    "HAND_FIELDS",
    "REDERIVE_EVENT_TYPES",
    "STREAM_PREFIX",
    "SUMMARY_FIELDS",
    "TURN_FIELDS",
    "MatchProjection",
    "RebuildResult",
    "hands_fold",
    "hands_rederive",
    "match_from_registration",
    "match_project",
    "match_rebuild",
    "match_registration",
    "match_rows",
    "match_summarise",
    "match_summary_statement",
    "projections_rebuild",
    "streams_rebuild",
    "unfinished_hand_row",
]
