"""patchsolve: a fast engine for the board game Patchwork."""

from patchsolve import errors
from patchsolve.errors import (
    IllegalMoveError,
    InvalidPositionError,
    LimitError,
    NotationError,
    PatchsolveError,
    SearchInterrupted,
)
from patchsolve.review.analysis import analyze_game
from patchsolve.review.coverage import coverage_map
from patchsolve.review.explanation import explain
from patchsolve.rules.game import Game
from patchsolve.rules.patches import PATCHES, Patch
from patchsolve.rules.position import Move, Position
from patchsolve.rules.tree import GameTree
from patchsolve.search import (
    Limits,
    RootMove,
    SearchResult,
    SolveProgress,
    request_stop,
    search,  # the function (binds over the subpackage's name)
    solve,
)

# ``import patchsolve.search.mcts as m`` resolves its last step through the
# attribute's __name__ (then sys.modules): name the function as the package
# it stands for so that form keeps working.
search.__name__ = "patchsolve.search"


GYM_ENV_ID = "patchsolve/Patchwork-v0"  # gymnasium.make(GYM_ENV_ID) after import patchsolve


def _register_gym(gymnasium) -> None:
    # by name: patchsolve.interop.gym (and the environment's dependencies) load at make(), not here
    if GYM_ENV_ID not in gymnasium.registry:
        gymnasium.register(GYM_ENV_ID, entry_point="patchsolve.interop.gym:SingleAgentEnv")


class _RegisterWhenGymnasiumLoads:
    """A one-shot import hook: when gymnasium is imported (before or after
    patchsolve), the environment is registered with it. Importing gymnasium
    here would add a tenth of a second to every ``import patchsolve``, and
    gymnasium 1.x no longer reads ``gymnasium.envs`` entry points."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "gymnasium":
            return None
        import sys

        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            spec = finder.find_spec(fullname, path, target) if hasattr(finder, "find_spec") else None
            if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
                run = spec.loader.exec_module

                def exec_module(module, run=run):
                    run(module)
                    _register_gym(module)

                spec.loader.exec_module = exec_module  # type: ignore[method-assign]
                return spec
        return None


def _hook_gym() -> None:
    import sys

    if sys.modules.get("gymnasium") is not None:
        _register_gym(sys.modules["gymnasium"])
    elif "gymnasium" not in sys.modules and not any(
        isinstance(f, _RegisterWhenGymnasiumLoads) for f in sys.meta_path
    ):
        sys.meta_path.insert(0, _RegisterWhenGymnasiumLoads())


_hook_gym()

__all__ = [
    "Position",
    "Move",
    "Game",
    "GameTree",
    "PATCHES",
    "Patch",
    "search",
    "solve",
    "request_stop",
    "Limits",
    "SearchResult",
    "RootMove",
    "SolveProgress",
    "errors",
    "PatchsolveError",
    "NotationError",
    "IllegalMoveError",
    "InvalidPositionError",
    "LimitError",
    "SearchInterrupted",
    "analyze_game",
    "explain",
    "coverage_map",
]
__version__ = "0.2.0"
