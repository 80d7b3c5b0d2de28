"""Load the hints endpoint of a running keypeg server from many clients at once.

    python benchmarks/web_load.py [--clients 20] [--games 6] [--settle 5]

Starts `keypeg serve` on a free loopback port (a separate process), then runs the clients
concurrently (asyncio, one keep-alive connection each): each plays classic games through
the API, asking for hints before every guess and playing the optimal hint, until solved.
Prints the hint latencies (median, p95, max) in milliseconds.

The clients speak HTTP/1.1 over raw asyncio streams: on a 2-core machine a full client
library would spend more CPU than the server and mostly measure itself. The few set-up
requests use the standard library (http.client), so the benchmark needs nothing beyond
what ``pip install -e '.[dev]'`` installs.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(url: str, method: str, path: str, body: object = None,
         timeout: float = 120.0) -> Any:
    """One JSON request with the standard library (set-up, not measured)."""
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data,
                     headers={} if data is None else {"Content-Type": "application/json"})
        response = conn.getresponse()
        payload = response.read()
        if response.status != 200:
            raise RuntimeError(f"{method} {path} answered {response.status}: {payload[:200]!r}")
        return json.loads(payload)
    finally:
        conn.close()


def start_server() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "KEYPEG_DB": os.path.join(tempfile.mkdtemp(), "load.db")}
    proc = subprocess.Popen([sys.executable, "-m", "keypeg", "serve", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            call(url, "GET", "/api/rules", timeout=1)
            return proc, url
        except (OSError, http.client.HTTPException):
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


class Connection:
    """A minimal keep-alive HTTP/1.1 JSON client over asyncio streams."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, method: str, path: str, body: object = None) -> object:
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
        self.writer.write(head.encode() + data)
        await self.writer.drain()
        headers = await self.reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in headers.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(await self.reader.readexactly(length))

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def client(url: str, games: int, latencies: list[float]) -> None:
    host, port = url.removeprefix("http://").split(":")
    http = Connection(host, int(port))
    await http.open()
    for _ in range(games):
        game: dict = await http.request("POST", "/api/games", {"rules": "classic"})  # type: ignore[assignment]
        while True:
            t = time.perf_counter()
            hints: dict = await http.request("GET", f"/api/games/{game['id']}/hints")  # type: ignore[assignment]
            latencies.append(time.perf_counter() - t)
            best = hints["optimal"] or hints["strategies"][2]
            out: dict = await http.request("POST", f"/api/games/{game['id']}/guesses",  # type: ignore[assignment]
                                           {"guess": best["guess"]})
            if out["over"]:
                break
    await http.close()


async def _run(url: str, clients: int, games: int) -> list[float]:
    latencies: list[float] = []
    await asyncio.gather(*(client(url, games, latencies) for _ in range(clients)))
    return latencies


def run(clients: int = 20, games: int = 6, settle: float = 5.0) -> dict[str, float]:
    proc, url = start_server()
    try:
        warm = call(url, "POST", "/api/games", {"rules": "classic"})
        call(url, "GET", f"/api/games/{warm['id']}/hints")
        time.sleep(settle)  # let every server process finish compiling and warming up
        latencies = sorted(asyncio.run(_run(url, clients, games)))
    finally:
        proc.terminate()
        proc.wait()
    return {"requests": len(latencies), "median": statistics.median(latencies),
            "p95": latencies[int(0.95 * (len(latencies) - 1))], "max": latencies[-1]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds to let the server warm up before the load")
    args = parser.parse_args()
    result = run(args.clients, args.games, args.settle)
    print(json.dumps({k: (round(v * 1000, 1) if k != "requests" else v)
                      for k, v in result.items()}))
