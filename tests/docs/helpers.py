"""Helpers of the manual's tests."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def build(config_file: Path, site: Path, **overrides: object) -> None:
    """`mkdocs build` of `config_file` into `site`, in this process (Django is set up
    already: the hooks use it as it is). Raises mkdocs' Abort when a strict build warns."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    config = load_config(str(config_file), site_dir=str(site), **overrides)
    config.plugins.on_startup(command="build", dirty=False)
    try:
        mkdocs_build(config)
    finally:
        config.plugins.on_shutdown()


def page(site: Path, uri: str) -> str:
    """The HTML of a built page, by its folder (`operators/settings/`)."""
    return (site / uri / "index.html").read_text(encoding="utf-8")


def ids(html: str) -> list[str]:
    return re.findall(r'\bid="([^"]+)"', html)
