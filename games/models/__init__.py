"""Models of the games app: the match read models (matches.py) and the players' table
entries waiting for confirmation (table_entries.py). Stored events are the event store's
(`eventstore.models`)."""

from games.models.matches import *  # noqa: F403
from games.models.table_entries import *  # noqa: F403
