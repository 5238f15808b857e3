import subprocess
import sys


def test_pairing_imports_no_django():
    code = "import sys, tournaments.pairing; print(sorted(m for m in sys.modules if 'django' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
