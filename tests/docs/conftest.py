"""The manual built once per test session, strictly, as `make install` builds it (the
reference pages generated from this code), into a temporary folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.docs.helpers import ROOT, build


@pytest.fixture(scope="session")
def manual(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site (a strict build: any warning, a broken link or anchor, fails it)."""
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    site = tmp_path_factory.mktemp("site")
    build(ROOT / "mkdocs.yml", site)
    return site


@pytest.fixture
def served_manual(manual: Path, settings) -> Iterator[Path]:
    """The app serves that build at /docs/."""
    settings.DOCS_ROOT = manual
    yield manual
