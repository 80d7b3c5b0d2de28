"""`keypeg serve`: the web page and its JSON API on a local port."""

import errno
import os
import socket
from typing import Annotated

import typer

from ..errors import KeypegError
from ..limits import usable_cores
from .common import command, console


def check_port(host: str, port: int) -> None:
    """Raise `KeypegError` when `host:port` cannot be listened on (a port in use, an
    address not of this machine), before the server says it serves there: uvicorn would
    print its own error after that line and exit 3."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise KeypegError(f"--host {host!r} is not an address this machine can listen on "
                          f"({exc.strerror}).") from exc
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise KeypegError(f"port {port} on {host} is already in use (another "
                                  "server?); choose another with --port.") from exc
            raise KeypegError(f"cannot listen on {host}:{port} ({exc.strerror}); choose "
                              "another --host or --port.") from exc


#: The most server processes `keypeg serve` starts.
MAX_SERVE_WORKERS = 32


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
    if not 1 <= n <= MAX_SERVE_WORKERS:  # (999 processes brought 2 cores to a halt)
        raise KeypegError(f"--workers must be from 1 to {MAX_SERVE_WORKERS}, not {n:,}.")
    if not 0 < port < 65536:
        raise KeypegError(f"--port must be from 1 to 65535, not {port}.")
    check_port(host, port)
    from ..store import Store

    Store()  # (an unusable KEYPEG_DB is refused here, not after the server says it serves)
    console.print(f"keypeg is serving on [bold]http://{host}:{port}/[/] with {n} process"
                  f"{'es' if n > 1 else ''} (Ctrl-C stops it)")
    import uvicorn

    from ..web.app import SERVE_PARENT_ENV

    # each worker ends with this process, even after a kill -9 (see serve_app)
    os.environ[SERVE_PARENT_ENV] = str(os.getpid())
    uvicorn.run("keypeg.web.app:serve_app", factory=True, host=host, port=port, workers=n,
                log_level="warning")
