"""The tournament's read models, written from its events and nothing else.

The rows of Tournament (its state fields), Registration, Round, Pairing and Standing are
projections of the stream "tournament-<id>": the repository calls `project_in_tx` with the
events it has just appended and the state they fold into, in the same transaction; the
rebuild (`tournament_rebuild_in_tx`, `manage.py rebuild_projections`/`rebuild_standings`)
folds every event again and writes every row the same way. Both paths copy the rows from
the folded state (`tournaments.domain`), so they cannot disagree; the times in the rows are
those the store recorded the events at.
"""

from tournaments.projections.reads import (
    pairing_results,
    standings_from_events,
    tournament_state,
    tournament_tiebreaks,
    typed_events,
)
from tournaments.projections.rebuild import (
    PICTURE_KEY_NAMES,
    projected_pictures,
    projected_rows,
    rows_differences,
    standings_rebuild,
    tournament_rebuild_in_tx,
)
from tournaments.projections.write import project_in_tx, standings_write_in_tx

__all__ = [
    "PICTURE_KEY_NAMES",
    "projected_pictures",
    "pairing_results",
    "project_in_tx",
    "projected_rows",
    "rows_differences",
    "standings_from_events",
    "standings_rebuild",
    "standings_write_in_tx",
    "tournament_rebuild_in_tx",
    "tournament_state",
    "tournament_tiebreaks",
    "typed_events",
]
