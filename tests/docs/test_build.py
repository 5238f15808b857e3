"""Issue 38: the manual builds strictly (a warning, a broken link or anchor fails it), in
parts for its four readers and the explanation, with nothing loaded from outside."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.docs.helpers import ROOT, build, page

PARTS = ("organisers", "players", "clients", "operators", "explanation")


def test_the_manual_builds_strictly_with_a_part_for_each_reader(manual):
    home = page(manual, "")
    for part in PARTS:
        assert (manual / part / "index.html").is_file(), part
        assert f'href="{part}/' in home, part


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("[a page that is not there](nowhere.md)", "nowhere.md"),
        ("[an anchor that is not there](#nowhere)", "nowhere"),
        ("[a page outside the nav](other.md#nowhere)", "nowhere"),
    ],
)
def test_a_broken_link_fails_the_build(tmp_path, text, complaint):
    """The checks mkdocs.yml asks for (validation, strict) catch what a reader would trip
    on: a build of one page with our settings and a broken link fails."""
    from mkdocs.exceptions import Abort

    ours = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(f"# Home\n\n{text}\n")
    (docs / "other.md").write_text("# Other\n")
    config = {
        "site_name": "check",
        "docs_dir": str(docs),
        "strict": True,
        "validation": ours["validation"],
        "nav": ["index.md", "other.md"],
    }
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config))
    with pytest.raises(Abort):
        build(tmp_path / "mkdocs.yml", tmp_path / "site")


def test_nothing_is_loaded_from_outside(manual):
    """No font from Google, no script, style, image or icon from another host: every asset
    a page names is a path of the site itself (the browser test watches the requests)."""
    asset = re.compile(r"<(?:script|link|img|source|iframe)\b[^>]*\b(?:src|href)=\"([^\"]+)\"")
    pages = list(manual.rglob("*.html"))
    assert len(pages) > 30
    for html_file in pages:
        for url in asset.findall(html_file.read_text(encoding="utf-8")):
            assert not re.match(r"^(?:[a-z]+:)?//", url), f"{html_file}: {url}"
    for css in manual.rglob("*.css"):
        text = css.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "@import url(http" not in text, css


def test_the_existing_operator_pages_are_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    for path in Path(ROOT / "docs" / "operators").glob("*.md"):
        assert f"operators/{path.name}" in nav, path.name
    assert "contributing/migrations.md" in nav


def test_the_tutorial_shows_screenshots_a_browser_test_takes():
    """Each image of the tutorial is in docs/organisers/img/ and is one that a browser test
    takes (`shoot(page, "NAME")`): HG_DOCS_SCREENSHOTS=1 pytest -m browser
    tests/web/desk/test_browser.py writes them again."""
    tutorial = (ROOT / "docs" / "organisers" / "first-club-evening.md").read_text()
    images = re.findall(r"!\[[^\]]*\]\(img/([\w-]+)\.png\)", tutorial)
    assert len(images) >= 8
    shot = set()
    for test in (ROOT / "tests").rglob("test_*browser*.py"):
        shot |= set(re.findall(r'shoot\(\w+, "([\w-]+)"', test.read_text()))
    for name in images:
        image = ROOT / "docs" / "organisers" / "img" / f"{name}.png"
        assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
        assert name in shot, f"{name}: no browser test takes it"
    kept = {p.stem for p in (ROOT / "docs" / "organisers" / "img").glob("*.png")}
    assert kept == set(images), "an image the tutorial does not show"


def test_the_operators_part_covers_backup_restore_upgrade_and_erasure(manual):
    """What issue 38 asks the operators' part to hold, reachable from its index."""
    index = (manual / "operators" / "index.html").read_text()
    for name, words in {
        "backup-restore": ("pg_dump", "pg_restore", "Key custody", "Upgrade"),
        "upgrade": ("migrate", "CHANGELOG.md", "backup"),
        "privacy": ("erase",),
        "settings": ("LOGIN_LOCKOUT_BY",),
        "commands": ("usage: manage.py backup", "usage: manage.py restore"),
    }.items():
        assert f'href="../{name}/"' in index or f'href="{name}/"' in index, name
        text = (manual / "operators" / name / "index.html").read_text()
        for word in words:
            assert word in text, (name, word)
