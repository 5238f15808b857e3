FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config ./config
COPY games ./games
COPY players ./players
COPY tournaments ./tournaments
COPY manage.py ./
RUN pip install --no-cache-dir .
RUN useradd --create-home gin
USER gin
EXPOSE 8000
CMD ["gunicorn", "-c", "config/gunicorn.py", "config.wsgi:application"]
