"""Environment access for settings (django-environ), with safe local defaults."""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# A local `.env` file is optional; the real environment always wins.
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(str(BASE_DIR / ".env"), overwrite=False)
