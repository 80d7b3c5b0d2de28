"""Load the hints endpoint of a running keypeg server from many clients at once.

    python benchmarks/web_load.py [--clients 20] [--games 6]

Starts `keypeg serve` on a free loopback port (a separate process), then each client plays
classic games through the API: it asks for hints, plays the optimal hint, and repeats until
solved. Prints the hint latencies (median, p95, max) in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "KEYPEG_DB": os.path.join(tempfile.mkdtemp(), "load.db")}
    proc = subprocess.Popen([sys.executable, "-m", "keypeg", "serve", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(url + "/api/rules", timeout=1)
            return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def client(url: str, games: int, latencies: list[float], lock: threading.Lock) -> None:
    with httpx.Client(base_url=url, timeout=30) as http:
        for _ in range(games):
            game = http.post("/api/games", json={"rules": "classic"}).json()
            while True:
                t = time.perf_counter()
                hints = http.get(f"/api/games/{game['id']}/hints").json()
                dt = time.perf_counter() - t
                with lock:
                    latencies.append(dt)
                best = hints["optimal"] or hints["strategies"][2]
                out = http.post(f"/api/games/{game['id']}/guesses",
                                json={"guess": best["guess"]}).json()
                if out["over"]:
                    break


def run(clients: int = 20, games: int = 6) -> dict[str, float]:
    proc, url = start_server()
    try:
        httpx.get(url + f"/api/games/{'x'}/hints")  # warm the routes
        warm = httpx.post(url + "/api/games", json={"rules": "classic"}).json()
        httpx.get(url + f"/api/games/{warm['id']}/hints", timeout=60)
        latencies: list[float] = []
        lock = threading.Lock()
        threads = [threading.Thread(target=client, args=(url, games, latencies, lock))
                   for _ in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        proc.terminate()
        proc.wait()
    latencies.sort()
    return {"requests": len(latencies), "median": statistics.median(latencies),
            "p95": latencies[int(0.95 * (len(latencies) - 1))], "max": latencies[-1]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    result = run(args.clients, args.games)
    print(json.dumps({k: (round(v * 1000, 1) if k != "requests" else v)
                      for k, v in result.items()}))
