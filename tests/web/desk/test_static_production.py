"""Static files under the production settings: after `collectstatic` (as the Dockerfile
runs it), the app serves a page's CSS and script itself (WhiteNoise), with hashed names,
compressed and cached for long; and the admin's CSS is no longer a 404."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import json, re, sys
import django
import config.settings.production as production

production.STATIC_ROOT = sys.argv[1]  # read by django.setup() below
django.setup()
from django.core.management import call_command
from django.test import Client

call_command("collectstatic", interactive=False, verbosity=0)
client = Client(HTTP_X_FORWARDED_PROTO="https")  # behind the TLS proxy (no redirect)
page = client.get("/desk/login/").content.decode()
out = {"links": re.findall(r'(?:href|src)="(/static/[^"]+)"', page), "files": {}}
for url in out["links"] + ["/static/admin/css/base.css"]:
    r = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    out["files"][url] = {
        "status": r.status_code,
        "type": r.get("Content-Type", ""),
        "encoding": r.get("Content-Encoding", ""),
        "cache": r.get("Cache-Control", ""),
    }
print(json.dumps(out))
"""


def test_css_and_scripts_are_served_under_production_settings(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "a-long-random-value-for-this-test-only-0123456789",
        "EVENT_CHAIN_KEY": "a-chain-key-for-this-test-only",
        "ALLOWED_HOSTS": "testserver",
    }
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "static")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    css = [u for u in out["links"] if u.endswith(".css")]
    js = [u for u in out["links"] if u.endswith(".js")]
    assert css and js, out["links"]
    # Hashed names (CompressedManifestStaticFilesStorage): desk.<hash>.css.
    assert re.search(r"/static/web/desk\.[0-9a-f]{12}\.css$", css[0])
    for url, got in out["files"].items():
        assert got["status"] == 200, (url, got)
    assert out["files"][css[0]]["type"].startswith("text/css")
    assert out["files"][css[0]]["encoding"] == "gzip"
    assert "immutable" in out["files"][css[0]]["cache"]
    assert "javascript" in out["files"][js[0]]["type"]
