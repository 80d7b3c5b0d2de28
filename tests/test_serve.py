"""`keypeg serve` as a real process: its workers end with it, even after a kill -9."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

KEYPEG = Path(sys.executable).with_name("keypeg")

pytestmark = pytest.mark.skipif(os.name != "posix" or not KEYPEG.exists(),
                                reason="needs a POSIX system and the keypeg script")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(port: int, tmp_path: Path, name: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "KEYPEG_DB": str(tmp_path / "serve.db")}
    log = (tmp_path / f"{name}.log").open("wb")
    return subprocess.Popen([str(KEYPEG), "serve", "--workers", "2", "--port", str(port)],
                            env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # its own group, to clean up after


def get(port: int, path: str, timeout: float = 2.0) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def wait_until_serving(proc: subprocess.Popen[bytes], port: int, tmp_path: Path,
                       seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        try:
            status, body = get(port, "/api/rules")
            if status == 200 and json.loads(body)[0]["name"] == "classic":
                return
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.1)  # polling a starting server
    logs = "".join(p.read_text(errors="replace") for p in tmp_path.glob("*.log"))
    pytest.fail(f"keypeg serve did not answer on port {port} (exit {proc.poll()}): {logs}")


def children(pid: int) -> list[int]:
    """The child processes of `pid` (Linux; empty elsewhere)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (OSError, IndexError):
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def port_is_free(port: int) -> bool:
    """True when nothing listens on `port` (a new listener can bind it, as uvicorn does)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def stop(proc: subprocess.Popen[bytes], pids: list[int]) -> None:
    """End a server this test started: gently, then its whole process group, then any
    worker of it still alive (by id)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    for pid in pids:
        if alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    if proc.poll() is None:
        proc.wait(10)


def raw(port: int, head: bytes, chunks: list[bytes]) -> bytes:
    """Send a request by hand and return the answer's first bytes (whatever was read
    when the server answered or closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(head)
        for chunk in chunks:
            try:
                s.sendall(chunk)
            except OSError:  # the server answered and closed: it read no further
                break
        answer = b""
        with contextlib.suppress(OSError):
            while b"\r\n\r\n" not in answer:
                data = s.recv(4096)
                if not data:
                    break
                answer += data
        return answer


def refuses_big_bodies(port: int) -> None:
    """Through uvicorn itself: a body declared too big is refused before it is sent, and a
    chunked one as soon as it passes the limit."""
    from keypeg.limits import MAX_BODY_BYTES

    declared = (b"POST /api/hints HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 1000000000\r\n\r\n")
    assert raw(port, declared, []).startswith(b"HTTP/1.1 413")  # no body sent at all
    chunked = (b"POST /api/hints HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n")
    piece = b"4000\r\n" + b" " * 0x4000 + b"\r\n"
    answer = raw(port, chunked, [piece] * (MAX_BODY_BYTES // 0x4000 + 2))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_workers_exit_when_the_parent_is_killed(tmp_path):
    port = free_port()
    first = start(port, tmp_path, "first")
    workers: list[int] = []
    try:
        wait_until_serving(first, port, tmp_path)
        deadline = time.monotonic() + 10
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = children(first.pid)
            time.sleep(0.05)
        first.kill()  # kill -9: no chance to stop its workers
        first.wait(5)
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline and not port_is_free(port):
            time.sleep(0.1)
        assert port_is_free(port), "the workers still hold the port after their parent died"
        while time.monotonic() < deadline and any(alive(p) for p in workers):
            time.sleep(0.1)
        assert not [p for p in workers if alive(p)], "workers outlived their parent"
    finally:
        stop(first, workers)

    second = start(port, tmp_path, "second")  # a restart on the same port
    try:
        wait_until_serving(second, port, tmp_path)
        status, _ = get(port, "/api/games/nope")
        assert status == 404
        refuses_big_bodies(port)
    finally:
        stop(second, children(second.pid))
    assert second.returncode is not None


WATCHED = """
import sys, time
from keypeg.web.app import exit_with_parent
exit_with_parent(int(sys.argv[1]), interval=0.05, use_prctl=sys.argv[2] == "prctl")
print("ready", flush=True)
time.sleep(60)
"""

MIDDLE = """
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], str(os.getpid()), sys.argv[2]])
print(child.pid, flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("how", ["prctl", "watchdog"])
def test_a_watched_process_ends_with_its_parent(how):
    """Both ways a worker learns that its parent died: the kernel's signal (Linux) and the
    portable watchdog thread."""
    if how == "prctl" and not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux only")
    middle = subprocess.Popen([sys.executable, "-c", MIDDLE, WATCHED, how],
                              stdout=subprocess.PIPE, start_new_session=True)
    child = 0
    try:
        assert middle.stdout is not None
        child = int(middle.stdout.readline())
        assert middle.stdout.readline().strip() == b"ready"
        middle.kill()
        middle.wait(5)
        deadline = time.monotonic() + 5
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(child), "the process outlived its parent"
    finally:
        stop(middle, [child] if child else [])


def test_a_port_in_use_is_refused_before_serving():
    """A port another server listens on (or an address not of this machine) is refused in
    one sentence, exit 2, without first saying that keypeg serves there."""
    from typer.testing import CliRunner

    from keypeg.cli import app

    runner = CliRunner()
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert f"port {port} on 127.0.0.1 is already in use" in result.output
    assert "serving" not in result.output
    result = runner.invoke(app, ["serve", "--host", "no.such.host.invalid"])
    assert result.exit_code == 2 and "is not an address this machine can listen on" in (
        result.output)


def test_an_unusable_store_is_refused_in_one_sentence(tmp_path, monkeypatch):
    """KEYPEG_DB naming a file that is no SQLite database, a folder, or a path whose folder
    cannot be made: every command that opens the store says so in one sentence, exit 2 (it
    had been a traceback), and `serve` says it before claiming to serve (its workers had
    died after that line)."""
    from typer.testing import CliRunner

    from keypeg.cli import app
    from keypeg.errors import KeypegError
    from keypeg.store import Store

    def started(*args, **kwargs):
        raise AssertionError("the server started")

    monkeypatch.setattr("uvicorn.run", started)
    runner = CliRunner()
    junk = tmp_path / "junk.db"
    junk.write_text("not a database\n")
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    for db, why in ((junk, "file is not a database"), (tmp_path, "a folder, not a file"),
                    (blocked / "k.db", "")):
        monkeypatch.setenv("KEYPEG_DB", str(db))
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            port = free.getsockname()[1]
        for args in (["optimal", "--rules", "mini"], ["match", "--rules", "mini"],
                     ["serve", "--port", str(port)]):
            result = runner.invoke(app, args, input="")
            assert result.exit_code == 2, (args, result.output)
            message = result.output.strip()
            assert message.startswith(f"error: KEYPEG_DB {str(db)!r} cannot be used as "
                                      "keypeg's SQLite database (" + why), message
            assert message.count(". ") == 0 and len(message) < 400, message
            assert "serving" not in result.output
    with pytest.raises(KeypegError, match=r"^the store '.*junk.db' cannot be used .* point "
                                          r"it at a writable file"):
        Store(junk)
    assert junk.read_text() == "not a database\n"  # (left as it was)
