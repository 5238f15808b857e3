"""The signature and the verification recipes of the manual (docs/clients/webhooks.md), in
Python and in TypeScript (no database)."""

from __future__ import annotations

import hashlib
import hmac
import re
import shutil
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from tournaments.webhooks.signing import (
    secret_generate,
    signature_header,
    signature_verify,
)

BODY = b'{"event_id":7,"position":3,"type":"RoundPaired"}'
SECRET = "whsec_test-secret"


def test_the_header_is_an_hmac_sha256_over_timestamp_dot_body():
    header = signature_header(secret=SECRET, body=BODY, timestamp=1_700_000_000)
    expected = hmac.new(SECRET.encode(), b"1700000000." + BODY, hashlib.sha256).hexdigest()
    assert header == f"t=1700000000,v1={expected}"


PAGE = Path(__file__).resolve().parents[3] / "docs" / "clients" / "webhooks.md"


def _recipe(language: str) -> str:
    """The verification recipe exactly as the manual's webhooks page gives it."""
    block = re.search(rf"^( *)```{language}\n(.*?)^\1```$", PAGE.read_text(), re.S | re.M)
    assert block, f"no {language} block in {PAGE}"
    return textwrap.dedent(block.group(2))


def _python_recipe():
    namespace: dict = {}
    exec(_recipe("python"), namespace)  # noqa: S102 - our own manual
    return namespace["verify"]


def test_the_python_recipe_verifies_what_the_server_signs():
    verify = _python_recipe()
    header = signature_header(secret=SECRET, body=BODY)
    assert verify(SECRET, BODY, header)
    assert not verify(SECRET, BODY + b" ", header)
    assert not verify("whsec_other", BODY, header)
    old = signature_header(secret=SECRET, body=BODY, timestamp=int(time.time()) - 301)
    assert not verify(SECRET, BODY, old)
    for garbage in ("", "v1=abc", "t=x,v1=abc", "t,v1"):
        assert not verify(SECRET, BODY, garbage)


def test_verification_refuses_tampering_other_secrets_old_times_and_garbage():
    now = 1_700_000_000
    header = signature_header(secret=SECRET, body=BODY, timestamp=now)
    assert signature_verify(secret=SECRET, body=BODY, header=header, now=now + 299)
    assert not signature_verify(secret=SECRET, body=BODY, header=header, now=now + 301)
    assert not signature_verify(secret=SECRET, body=BODY, header=header, now=now - 301)
    assert not signature_verify(
        secret=SECRET, body=BODY.replace(b"3", b"4"), header=header, now=now
    )
    assert not signature_verify(secret="whsec_other", body=BODY, header=header, now=now)
    # The timestamp is signed: moving it breaks the signature.
    moved = header.replace(f"t={now}", f"t={now + 1}")
    assert not signature_verify(secret=SECRET, body=BODY, header=moved, now=now)
    for garbage in ("", "v1=abc", "t=x,v1=abc", "t,v1", f"t={now}", "t=1=2,v1=="):
        assert not signature_verify(secret=SECRET, body=BODY, header=garbage, now=now)


def test_one_matching_v1_of_several_is_enough():
    now = 1_700_000_000
    good = signature_header(secret=SECRET, body=BODY, timestamp=now).split(",v1=")[1]
    header = f"t={now},v1={'0' * 64},v1={good}"
    assert signature_verify(secret=SECRET, body=BODY, header=header, now=now)


def test_secrets_are_long_random_and_recognisable():
    a, b = secret_generate(), secret_generate()
    assert a != b and a.startswith("whsec_") and len(a) >= 40


# The TypeScript recipe run by Node.js: its type annotations taken off (the few forms the
# recipe uses), the rest as written, an ES module.
_TYPES = re.compile(r"(?<=[\w)]): (?:string|number|boolean|Buffer)\b|<string, string>")


@pytest.mark.skipif(shutil.which("node") is None, reason="the TypeScript recipe runs on Node.js")
def test_the_typescript_recipe_verifies_what_the_server_signs(tmp_path):
    (tmp_path / "verify.mjs").write_text(_TYPES.sub("", _recipe("typescript")))
    (tmp_path / "run.mjs").write_text(
        'import { verify } from "./verify.mjs";\n'
        "const [secret, header, body] = process.argv.slice(2);\n"
        'console.log(verify(secret, Buffer.from(body, "hex"), header));\n'
    )

    def verify(secret: str, body: bytes, header: str) -> bool:
        done = subprocess.run(  # noqa: S603
            ["node", str(tmp_path / "run.mjs"), secret, header, body.hex()],  # noqa: S607
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return {"true": True, "false": False}[done.stdout.strip()]

    header = signature_header(secret=SECRET, body=BODY)
    assert verify(SECRET, BODY, header)
    assert not verify(SECRET, BODY + b" ", header)
    assert not verify("whsec_other", BODY, header)
    old = signature_header(secret=SECRET, body=BODY, timestamp=int(time.time()) - 301)
    assert not verify(SECRET, BODY, old)
    for garbage in ("", "v1=abc", "t=x,v1=abc", "t,v1"):
        assert not verify(SECRET, BODY, garbage)
