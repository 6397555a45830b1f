"""Without the optional packages the adapters say which extra to install
(an ImportError still, so callers can test for it); the rest of patchsolve
imports without them."""

import subprocess
import sys

BLOCK = "import sys; sys.modules.update(dict.fromkeys(['pyspiel', 'pettingzoo', 'gymnasium', 'cairosvg'], None)); "


def run(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", BLOCK + code], capture_output=True, text=True, check=True
    ).stdout


def test_missing_package_names_the_extra():
    out = run("""
for module in ("patchsolve.interop.openspiel", "patchsolve.interop.env", "patchsolve.interop.gym"):
    try:
        __import__(module)
    except ImportError as e:
        print(module, e)
""")
    lines = out.splitlines()
    assert len(lines) == 3
    for line, extra in zip(lines, ("openspiel", "pettingzoo", "pettingzoo")):
        assert f"pip install 'patchsolve[{extra}]'" in line


def test_core_adapters_need_no_optional_package():
    out = run("""
import patchsolve as ps
from patchsolve.interop import actions, episode, observation
e = episode.Episode()
e.reset(seed=1)
print(actions.NUM_ACTIONS, observation.observation(e.position, 0).shape[0], e.render("ansi").count("player"))
try:
    e.render("rgb_array")
except ps.PatchsolveError as err:
    print("rgb:", err)
""")
    lines = out.splitlines()
    assert lines[0] == "7431 432 2"
    assert lines[1].startswith("rgb:") and "cairosvg" in lines[1]
