"""Models of the games app: stored events (events.py) and match read models (matches.py)."""

from games.models.events import *  # noqa: F403
from games.models.matches import *  # noqa: F403
