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


def test_production_settings_refuse_to_start_without_a_chain_key(monkeypatch):
    """Never a chain key derived from SECRET_KEY in production: a restore with another
    SECRET_KEY (or a rotated one) must not turn the history into "forgery"."""
    import importlib
    import sys

    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.setenv("SECRET_KEY", "a-long-random-value-for-this-test-only-0123456789")
    monkeypatch.setenv("ALLOWED_HOSTS", "example.org")
    for name in ("EVENT_CHAIN_KEY", "EVENT_CHAIN_KEY_FILE", "EVENT_CHAIN_KEYS",
                 "EVENT_CHAIN_KEYS_FILE"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    try:
        for name in ("config.settings.production", "config.settings.base"):
            sys.modules.pop(name, None)
        with pytest.raises(ImproperlyConfigured, match="EVENT_CHAIN_KEY"):
            importlib.import_module("config.settings.production")
        monkeypatch.setenv("EVENT_CHAIN_KEY", "a-chain-key-kept-apart")
        for name in ("config.settings.production", "config.settings.base"):
            sys.modules.pop(name, None)
        production = importlib.import_module("config.settings.production")
        assert production.EVENT_CHAIN_KEY == "a-chain-key-kept-apart"
    finally:
        for name in ("config.settings.production", "config.settings.base"):
            sys.modules.pop(name, None)
