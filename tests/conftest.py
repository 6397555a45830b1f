import signal
import sys
from pathlib import Path

import pytest

# tests/ holds the pure-Python reference rules (reference.py)
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_configure(config):
    # A suite started in the background of a non-interactive shell (`.ci/run &`)
    # inherits SIGINT ignored, and every process it starts would too, so the
    # tests that send a real Ctrl-C to a real process would see it ignored.
    # A handler (unlike "ignored") is reset to the default in a new program.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser):
    parser.addoption(
        "--diff-games",
        type=int,
        default=200,
        help="random games in the differential test against the reference rules",
    )
    parser.addoption("--runslow", action="store_true", default=False, help="run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def diff_games(request):
    return request.config.getoption("--diff-games")
