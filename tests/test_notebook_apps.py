"""The widget and the pictures in JupyterLab and Notebook 7 (``scripts/notebook_check.py``);
without ``jupyterlab`` and ``notebook`` these tests skip (fail under ``CI``)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1800)]  # the script: up to 1,500 s

SCRIPT = Path(__file__).parent.parent / "scripts" / "notebook_check.py"


@pytest.mark.parametrize("app, package", [("lab", "jupyterlab"), ("notebook", "notebook")])
def test_the_notebook_app(app, package, tmp_path):
    missing = [m for m in (package, "playwright") if importlib.util.find_spec(m) is None]
    if not os.path.exists("/usr/bin/chromium"):
        missing.append("/usr/bin/chromium")
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests must run in CI: {missing} missing")
        pytest.skip(f"{', '.join(missing)} missing")
    out = Path(os.environ.get("BITKNIGHTS_SCREENSHOTS") or tmp_path)
    command = [sys.executable, str(SCRIPT), str(out), "--app", app]
    p = subprocess.run(command, capture_output=True, text=True, timeout=1500)
    failed = [line for line in p.stdout.splitlines() if line.startswith(("FAIL", "     "))]
    assert p.returncode == 0, "\n".join(failed) or p.stderr[-2000:]
    assert "FAIL" not in p.stdout
