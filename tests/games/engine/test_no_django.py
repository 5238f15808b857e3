"""The engine is pure Python: importing all of it loads no Django, DRF or Celery."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

MODULES = [
    "games.engine",
    "games.engine.actions",
    "games.engine.bot",
    "games.engine.cards",
    "games.engine.corrections",
    "games.engine.errors",
    "games.engine.events",
    "games.engine.evolve",
    "games.engine.match",
    "games.engine.outcomes",
    "games.engine.play",
    "games.engine.rulings",
    "games.engine.melds",
    "games.engine.ruleset",
    "games.engine.scoresheet",
    "games.engine.state",
    "games.engine.view",
]

SCRIPT = f"""
import importlib, sys
for name in {MODULES!r}:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("django", "rest_framework", "celery"))
print(",".join(loaded))
"""


def test_engine_imports_no_django():
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, env={}, cwd=ROOT
    )
    assert result.stdout.strip() == ""


def test_the_check_would_notice_django():
    script = SCRIPT.replace("for name in", "import django.conf\nfor name in")
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env={}, cwd=ROOT
    )
    assert "django" in result.stdout
