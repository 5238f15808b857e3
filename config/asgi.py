"""The ASGI entry point: `uvicorn config.asgi:application`. Serves every URL, and is what
the live streams (server-sent events, core.live) need: an async view waits on an event
loop, not in a worker thread. `make run` serves with it too (config.settings.local), with
the static files served as runserver would when DEBUG is on."""

import gc

from django.conf import settings
from django.core.asgi import get_asgi_application

from config.entry import settings_module_choose

settings_module_choose()  # DJANGO_SETTINGS_MODULE, one for every entry point
application = get_asgi_application()

from core.asgi import with_graceful_stop  # noqa: E402  (Django is set up above)

if settings.DEBUG:  # the static files handler only where runserver would serve them
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    application = ASGIStaticFilesHandler(application)
application = with_graceful_stop(application)

# What is loaded by now (Django, the apps, their modules) lives as long as the process: kept
# out of the collector's sight (gc.freeze), a full collection with thousands of followers
# connected scans only what came since instead of every module too (issue 41).
gc.freeze()
