"""Issue 38: the README is short (what it is, the two commands, the tree and its layers,
how to test and lint, links into the manual), and every link in it leads somewhere."""

from __future__ import annotations

import re

from tests.docs.helpers import ROOT

README = ROOT / "README.md"


def test_the_readme_is_short_and_gives_the_two_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    commands = re.search(r"^## Two commands\n\n```sh\n(.*?)^```", text, re.S | re.M).group(1)
    assert re.search(r"^make run\b", commands, re.M) and re.search(r"^make test\b", commands, re.M)
    assert text.count("![") == 1  # one screenshot


def test_every_link_of_the_readme_leads_to_a_file():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if not re.match(r"^[a-z]+:", link)]
    assert len(local) > 15
    for link in local:
        assert (ROOT / link).exists(), link
