"""`keypeg serve`: the web page and its JSON API on a local port."""

from typing import Annotated

import typer

from .common import command, console


@command
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
) -> None:
    """Serve the web page: play, hints, watch a strategy, strategy lab, assist."""
    import uvicorn

    from ..web.app import create_app

    console.print(f"keypeg is serving on [bold]http://{host}:{port}/[/] (Ctrl-C stops it)")
    uvicorn.run(create_app(warm_up=True), host=host, port=port, log_level="warning")
