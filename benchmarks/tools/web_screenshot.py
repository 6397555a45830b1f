"""The manual's screenshots of the web app (docs/web.md), taken by the browser
tests' own flows at each screen size (tests/test_web_browser.py, with
PATCHSOLVE_SCREENSHOTS=1): the board with the engine's best move drawn on it
(``analysis-*.png``, at phone, tablet and laptop size), a variation beside
the main line and a review with its graph (``variation-*.png``,
``review-*.png``, phone and laptop) and the quiz on the board
(``quiz-phone.png``), into docs/_static/web/ (the ones docs/web.md shows:
tests/test_web_browser.py's MANUAL_SHOTS). Needs the [webtest] extra and Debian's chromium +
chromium-driver. Fails when a picture is over 200 KB.

    python benchmarks/tools/web_screenshot.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "docs" / "_static" / "web"
FLOWS = "set_up_a_position_then_analyse or variation_and_come_back or review_then_practise"
LIMIT = 200 * 1024


def main() -> int:
    env = {**os.environ, "PATCHSOLVE_SCREENSHOTS": "1"}
    test = ROOT / "tests" / "test_web_browser.py"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", str(test), "-k", FLOWS], cwd=ROOT, env=env)
    if run.returncode:
        return run.returncode
    too_big = []
    for png in sorted(SCREENS.glob("*.png")):
        size = png.stat().st_size
        print(f"{png.relative_to(ROOT)}: {size / 1024:.0f} KB")
        if size > LIMIT:
            too_big.append(png.name)
    if too_big:
        print(f"over {LIMIT // 1024} KB: {', '.join(too_big)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
