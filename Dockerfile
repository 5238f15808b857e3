FROM python:3.11-slim
# One settings module for every entry point (config/entry.py): gunicorn, uvicorn, celery and
# manage.py in this image all run the production settings.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=config.settings.production
WORKDIR /app
# gettext: compilemessages; libicu + a compiler: PyICU (names sorted by each language's rules).
RUN apt-get update && apt-get install -y --no-install-recommends gettext libicu-dev pkg-config g++ \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md ./
COPY config ./config
COPY games ./games
COPY players ./players
COPY tournaments ./tournaments
COPY core ./core
COPY eventstore ./eventstore
COPY web ./web
COPY demo ./demo
COPY deploy ./deploy
COPY locale ./locale
COPY manage.py mkdocs.yml ./
COPY docs ./docs
RUN pip install --no-cache-dir .
# The catalogues compiled (pages in the clubs' languages) and the static files (admin, desk
# CSS, vendored htmx) compressed with hashed names, served by WhiteNoise
# (config/settings/production.py), and the manual served at /docs/ (mkdocs.yml). The keys
# are build-time placeholders only.
RUN SECRET_KEY=build-only EVENT_CHAIN_KEY=build-only ALLOWED_HOSTS=localhost \
    python manage.py compilemessages -v 0 \
    && SECRET_KEY=build-only EVENT_CHAIN_KEY=build-only ALLOWED_HOSTS=localhost \
    python manage.py collectstatic --noinput \
    && DJANGO_SETTINGS_MODULE=config.settings.local NO_MKDOCS_2_WARNING=1 mkdocs build --strict -q
# /backups: the backup service's volume, written as gin (a new volume takes this owner).
RUN useradd --create-home gin && mkdir -p /backups && chown gin /backups
USER gin
EXPOSE 8000
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "config.wsgi:application"]
