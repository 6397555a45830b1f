"""The walk of the search limits from the CLI down: how many times a
``Limits`` object enters each module of ``src/patchsolve/search/`` on one
``patchsolve best`` call, and how many times it comes back to a module it
had already left.

Run:  python benchmarks/tools/limit_trace.py --time 0.5
      python benchmarks/tools/limit_trace.py --nodes 200000
      python benchmarks/tools/limit_trace.py --nodes 200000 --show   (the walk itself)
      python benchmarks/tools/limit_trace.py --nodes 200000 --calls  (each call)

The command runs in this process (``patchsolve.cli.main``) with a profile
hook (``sys.setprofile`` and ``threading.setprofile``) that sees every
Python call into a file of ``search/``; a call counts when one of its
arguments is a ``Limits`` (``self`` included: a method of ``Limits``
counts for ``limits.py``). Per thread, the calls make a walk of modules;
calls in a row in one module are one visit. A module *entered* n times has
n visits; a *return* is a visit to a module the walk had already left.
The solver beside the search runs on a thread of its own: its walk is
counted apart and added. A last line counts the walk again without the
calls into ``limits.py`` (the ``Limits``'s own methods, and every
``Limits`` built): the walk between the other modules.

A second count takes the search's time manager (``budget.TimeManager``, which
holds the ``Limits`` and is asked for each share without it) for its
``Limits``: a call with the manager among its arguments (or the near-end
``Plan``, which holds it) counts too. That
is the walk of the budget, where the first count is the walk of the
``Limits`` object itself.

The position (default: ply 29 of ``bench.noisy_greedy_game(1)``, 14
spaces from the end, whose value the solver does not prove at once) is
near the end, so the whole near-end path runs: the solver first or beside
the search, the engine, the hand-over and keeping a proven win.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import os
import sys
import threading
from pathlib import Path

SEARCH = Path(__file__).resolve().parents[2] / "src" / "patchsolve" / "search"


def default_position() -> str:
    from patchsolve.search import bench

    return bench.noisy_greedy_game(1)[29].to_text()


def trace(argv: list[str]):
    """The walks (thread name -> [module, ...], one entry a call) of
    ``patchsolve`` run with ``argv``: of the ``Limits``, and of the
    ``Limits`` or the time manager holding them; and the command's exit
    code."""
    import patchsolve.cli
    from patchsolve.search import budget
    from patchsolve.search.limits import Limits

    manager = getattr(budget, "TimeManager", Limits)  # before the time manager: the Limits alone

    search_dir = str(SEARCH)
    here = os.path.dirname(sys.modules["patchsolve.search.limits"].__file__ or "")
    if os.path.realpath(here) != os.path.realpath(search_dir):
        search_dir = here  # an installed copy: trace what runs
    walks: dict = collections.defaultdict(list)
    held: dict = collections.defaultdict(list)
    lock = threading.Lock()

    def hook(frame, event, arg):
        if event != "call":
            return
        path = frame.f_code.co_filename
        if not path.startswith(search_dir) or not path.endswith(".py"):
            return
        code = frame.f_code
        names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        values = [frame.f_locals.get(n) for n in names]
        if code.co_flags & 0x04:  # *args
            values += list(frame.f_locals.get(code.co_varnames[len(names)], ()))
        limits = any(isinstance(v, Limits) for v in values)
        if limits or any(_holds(v, manager) for v in values):
            with lock:
                call = f"{os.path.basename(path)[:-3]}.{code.co_name}"
                held[threading.current_thread().name].append(call)
                if limits:
                    walks[threading.current_thread().name].append(call)

    sys.setprofile(hook)
    threading.setprofile(hook)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            code = patchsolve.cli.main(["best", *argv])
    except SystemExit as e:
        code = e.code
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    return dict(walks), dict(held), code


def _holds(value, manager) -> bool:
    """Whether ``value`` is the time manager ``manager`` or holds it (the
    near-end ``Plan``: its ``manager``)."""
    if isinstance(value, manager):
        return True
    try:
        return isinstance(getattr(value, "manager", None), manager)
    except Exception:
        return False


def visits(walk: list[str]) -> list[str]:
    """Calls in a row in one module as one visit (``walk``: module.function)."""
    modules = [call.split(".")[0] for call in walk]
    return [m for i, m in enumerate(modules) if i == 0 or modules[i - 1] != m]


def summary(walks: dict, skip: str | None = None) -> tuple[collections.Counter, int, int]:
    """(Visits per module, returns, calls) over every thread's walk, the
    calls into module ``skip`` left out if given."""
    entered: collections.Counter = collections.Counter()
    returns = calls = 0
    for walk in walks.values():
        if skip is not None:
            walk = [call for call in walk if call.split(".")[0] != skip]
        v = visits(walk)
        entered.update(v)
        returns += len(v) - len(set(v))
        calls += len(walk)
    return entered, returns, calls


def report(walks: dict, label: str, args: argparse.Namespace) -> None:
    """Print the walks (``--show``, ``--calls``), the visits and returns, each
    module's entries, and the same without ``limits.py`` (the Limits's own
    methods left out: the walk between the other modules)."""
    tag = f" ({label})" if label else ""
    for name, walk in walks.items():
        if args.show:
            print(f"{name}{tag}: {' -> '.join(visits(walk))}")
        if args.calls:
            print(f"{name}{tag}: {' '.join(walk)}")
    entered, returns, calls = summary(walks)
    head = f"{label}: calls" if label else "calls with a Limits:"
    print(f"{head} {calls}; visits: {sum(entered.values())}; returns to a module left: {returns}")
    for module, n in sorted(entered.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {module}: entered {n}")
    entered, returns, calls = summary(walks, skip="limits")
    head = f"{label}, without limits.py" if label else "without limits.py"
    print(f"{head}: calls {calls}; visits: {sum(entered.values())}; returns to a module left: {returns}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float)
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--engine", default="alphabeta")
    ap.add_argument("--position", help="a position's text (default: see the module doc)")
    ap.add_argument("--show", action="store_true", help="print each thread's walk")
    ap.add_argument("--calls", action="store_true", help="print each call (module.function)")
    args = ap.parse_args(argv)
    cli = ["--engine", args.engine, "--quiet"]
    if args.time is not None:
        cli += ["--time", str(args.time)]
    if args.nodes is not None:
        cli += ["--nodes", str(args.nodes)]
    cli += [args.position or default_position()]
    walks, held, code = trace(cli)
    print(f"patchsolve best {' '.join(cli[:-1])} POSITION: exit {code}", file=sys.stderr)
    report(walks, "", args)
    # the time manager counted as its Limits: the walk of the budget
    report(held, "with the time manager", args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
