FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
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
COPY manage.py ./
RUN pip install --no-cache-dir .
RUN python manage.py compilemessages -v 0
# Static files (admin, desk CSS, vendored htmx) compressed and with hashed names, served by
# WhiteNoise (config/settings/production.py); the key is a build-time placeholder only.
RUN SECRET_KEY=collectstatic-only EVENT_CHAIN_KEY=collectstatic-only ALLOWED_HOSTS=localhost \
    DJANGO_SETTINGS_MODULE=config.settings.production python manage.py collectstatic --noinput
RUN useradd --create-home gin
USER gin
EXPOSE 8000
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "config.wsgi:application"]
