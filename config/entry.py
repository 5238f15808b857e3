"""Which settings every entry point runs with (manage.py, the Celery app, ASGI, WSGI): the
one DJANGO_SETTINGS_MODULE of the environment, or of the `.env` file beside manage.py
(config.env reads it; the real environment wins), set once per installation: the image
and docker-compose.yml, systemd's EnvironmentFile (deploy/systemd/), or `.env`.

Unset, it is the production settings everywhere: a forgotten variable refuses to start
without a SECRET_KEY rather than serving DEBUG pages. A developer's machine says
`DJANGO_SETTINGS_MODULE=config.settings.local` in `.env` once (`make run` and the other
Makefile targets pass it themselves; pytest uses config.settings.test)."""

from __future__ import annotations

import os

DEFAULT = "config.settings.production"


def settings_module_choose() -> str:
    # Lazy on purpose: reads .env into the environment (without overriding it) when an entry
    # point chooses its settings, not when a test or a docs hook imports this module.
    import config.env  # noqa: F401

    return os.environ.setdefault("DJANGO_SETTINGS_MODULE", DEFAULT)
