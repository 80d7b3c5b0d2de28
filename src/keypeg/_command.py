"""The `keypeg` command's entry point (the console script and `python -m keypeg`).

It turns Python's cyclic garbage collector off before anything is imported. A command
imports numba, numpy, typer and rich (about a million objects, none of them garbage), and
the collector would walk them again and again while they load: about 0.09 s of every
command, measured on a trivial `keypeg optimal`. Reference counting still frees
everything else. The commands that keep running (play, assist, match, serve, report)
turn it back on (`keypeg.cli._collector`), after freezing what the imports made.
"""

import gc


def main() -> None:
    gc.disable()
    from keypeg.cli import main as run

    run()
