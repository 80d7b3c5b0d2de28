"""`keypeg serve`: the web page and its JSON API on a local port."""

import os
from typing import Annotated

import typer

from ..errors import KeypegError
from ..limits import usable_cores
from .common import command, console


@command
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Server processes (default: one per core, "
                                 "at most 2); games live in SQLite, so they share them.")
    ] = None,
) -> None:
    """Serve the web page: play, hints, watch a strategy, strategy lab, assist."""
    n = workers if workers is not None else min(2, usable_cores())
    if n < 1:
        raise KeypegError(f"--workers must be at least 1, not {n}.")
    if not 0 < port < 65536:
        raise KeypegError(f"--port must be from 1 to 65535, not {port}.")
    console.print(f"keypeg is serving on [bold]http://{host}:{port}/[/] with {n} process"
                  f"{'es' if n > 1 else ''} (Ctrl-C stops it)")
    import uvicorn

    from ..web.app import SERVE_PARENT_ENV

    # each worker ends with this process, even after a kill -9 (see serve_app)
    os.environ[SERVE_PARENT_ENV] = str(os.getpid())
    uvicorn.run("keypeg.web.app:serve_app", factory=True, host=host, port=port, workers=n,
                log_level="warning")
