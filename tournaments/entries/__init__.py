"""A tournament's entries beyond its event stream (issue 40): the entry rules, the entry
fees, the calendar feeds. A sub-app with its own layers (pyproject.toml)."""
