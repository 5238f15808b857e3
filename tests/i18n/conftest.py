"""The browser fixture of the pages' browser tests (tests/web/conftest.py), for these too."""

from tests.web.conftest import browser  # noqa: F401
