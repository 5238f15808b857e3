#!/usr/bin/env python3
"""The earlier name of tools/verify_match.py, kept for links: runs it (same arguments, same
exit status). The one implementation is verify_match.py, beside this file.

    python3 -I tools/verify_bundle.py match-audit.json
"""

import runpy
import sys
from pathlib import Path

if __name__ == "__main__":
    sys.argv[0] = str(Path(__file__).with_name("verify_match.py"))
    runpy.run_path(sys.argv[0], run_name="__main__")
