import pytest


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
