import pytest


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"] in ("ok", "eager")
    assert body["status"] == "ok"


def test_production_settings_refuse_the_development_key(monkeypatch):
    import importlib
    import sys

    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("ALLOWED_HOSTS", "example.org")
    for name in ("config.settings.production", "config.settings.base"):
        sys.modules.pop(name, None)
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        importlib.import_module("config.settings.production")
    sys.modules.pop("config.settings.base", None)
