"""Models of the games app: the match read models (matches.py). Stored events are the event
store's (`eventstore.models`)."""

from games.models.matches import *  # noqa: F403
