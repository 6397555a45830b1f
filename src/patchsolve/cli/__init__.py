"""The ``patchsolve`` command line (Click). The only package that prints.

Results go to stdout (``--json`` on every command that produces one);
progress and info lines go to stderr (``--quiet`` silences them). Bad input
gives one line on stderr, ``patchsolve: error: ...``, and exit status 2.

POSITION is the one-line notation of :mod:`patchsolve.rules.notation` (quoted or
not: the words are joined), a JSON position, board text
(:mod:`patchsolve.rules.board`), ``-`` to read standard input, or ``-f FILE``;
without one the built-in start position (``Position.start(seed=DEFAULT_SEED)``)
is used.

The commands live by family: :mod:`~patchsolve.cli.position` (new, show,
moves, patches, replay, perft), :mod:`~patchsolve.cli.engine` (best, eval,
solve), :mod:`~patchsolve.cli.review` (analyze, explain, quiz), :mod:`~patchsolve.cli.play` (the terminal game),
:mod:`~patchsolve.cli.match` (tournament, bench, serve) and :mod:`~patchsolve.cli.selfplay`
(selfplay, statistics); what they share is in :mod:`~patchsolve.cli.common`.
"""

from __future__ import annotations

import sys

import click

from patchsolve import __version__
from patchsolve.cli import engine, match, play, position, review, selfplay
from patchsolve.cli.common import CONTEXT, INTERRUPTED, error_line
from patchsolve.errors import PatchsolveError
from patchsolve.search.stop import ctrl_c_returns


class PatchsolveGroup(click.Group):
    """A group whose errors are one line on stderr with exit status 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Run a command; every error becomes one stderr line and an exit status."""
        try:
            with ctrl_c_returns():  # a search stopped by Ctrl-C returns: the commands print it, exit 130
                rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) and not isinstance(rv, bool) else 0
        except click.exceptions.NoArgsIsHelpError as e:
            e.show()
            code = 0
        except click.UsageError as e:
            hint = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
            error_line(e.format_message() + hint)
            code = 2
        except click.ClickException as e:
            error_line(e.format_message())
            code = e.exit_code
        except (click.Abort, KeyboardInterrupt):
            click.echo("patchsolve: interrupted", err=True)
            code = INTERRUPTED
        except PatchsolveError as e:
            error_line(str(e))
            code = 2
        if standalone_mode:
            sys.exit(code)
        return code


@click.group(cls=PatchsolveGroup, context_settings=CONTEXT)
@click.version_option(__version__, prog_name="patchsolve")
def cli():
    """patchsolve: a Patchwork engine.

    Questions a new user asks (install, entering the position on your
    table, notation, budgets, why two runs differ, ...) are answered in the
    manual's questions page (docs/questions.md).

    \b
    Examples:
      patchsolve new --seed 7
      patchsolve show
      patchsolve new --seed 7 | patchsolve best - --nodes 200000
      patchsolve new --seed 7 > position.txt
      patchsolve moves -f position.txt
      patchsolve play --p0 engine --p1 engine --nodes 2000 --record game.txt --quiet
      patchsolve replay game.txt --ply 10
    """


for _command in (
    position.new,
    position.show,
    position.moves,
    position.patches,
    position.replay,
    position.perft,
    engine.best,
    engine.eval_cmd,
    engine.solve,
    review.analyze,
    review.explain,
    review.quiz,
    play.play,
    match.tournament,
    match.bench,
    match.serve,
    selfplay.selfplay,
    selfplay.statistics,
):
    cli.add_command(_command)


def main(argv=None):
    """The console script: ``patchsolve ...``."""
    return cli.main(args=argv, prog_name="patchsolve")


__all__ = ["cli", "main"]
