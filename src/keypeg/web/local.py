"""Serve the app on a free loopback port from a background thread, for the browser tests,
the screenshot script and anything else that needs a real server for a while."""

from __future__ import annotations

import os
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    """Return a loopback port nobody listens on (at the time of asking)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve_locally(db: Path, *, start_seconds: float = 30) -> Iterator[str]:
    """Serve the app with its games in `db` on a free loopback port; yield its URL once it
    answers. The kernels are compiled first (a fresh checkout compiles them once, which
    takes longer than a client should wait for one answer). `KEYPEG_DB` points at `db`
    meanwhile and is restored after."""
    import uvicorn

    from ..store import Store
    from .app import create_app

    old_db = os.environ.get("KEYPEG_DB")
    os.environ["KEYPEG_DB"] = str(db)
    app = create_app(Store(db))
    app.state.service.warm_up()
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + start_seconds
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/rules", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline or not thread.is_alive():
                    raise RuntimeError("the keypeg server did not start") from None
                time.sleep(0.05)  # polling a starting server
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        if old_db is None:
            os.environ.pop("KEYPEG_DB", None)
        else:
            os.environ["KEYPEG_DB"] = old_db
