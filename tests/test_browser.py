"""Real-browser tests of the web page (Playwright + Debian's chromium).

The app runs on a free loopback port in a background thread; each test opens the page in a
fresh browser context and drives it like a user (clicks and keys), then checks what the page
shows against the library. Synchronisation is by Playwright's waiting: the page marks its
state on elements (``#hints[data-state=ready][data-history=...]``, ``data-feedback`` on
board rows, ``#lab-table[data-state=ready]``), so no test sleeps.

Set ``KEYPEG_UPDATE_SCREENSHOT=1`` to rewrite docs/screenshot.png (it is written when
missing).
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("KEYPEG_CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent
SCREENSHOT = ROOT / "docs" / "screenshot.png"

if not Path(CHROMIUM).exists() and os.environ.get("KEYPEG_REQUIRE_BROWSER"):
    raise RuntimeError(f"no chromium at {CHROMIUM}, and KEYPEG_REQUIRE_BROWSER is set (CI)")
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"no chromium at {CHROMIUM} (apt-get install chromium, or set KEYPEG_CHROMIUM)",
)

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

from keypeg.codes import Code  # noqa: E402
from keypeg.feedback import score  # noqa: E402
from keypeg.game import GameState  # noqa: E402
from keypeg.hints import hint  # noqa: E402
from keypeg.rules import find_rules  # noqa: E402
from keypeg.strategies import TABLE_STRATEGIES, evaluate, find_strategy  # noqa: E402

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 20_000
expect.set_options(timeout=TIMEOUT_MS)


# ---------------------------------------------------------------------- fixtures
def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve the app on a free loopback port from a background thread; yield its URL."""
    import uvicorn

    from keypeg.store import Store
    from keypeg.web.app import create_app

    db = tmp_path_factory.mktemp("browser") / "keypeg.db"
    old_db = os.environ.get("KEYPEG_DB")
    os.environ["KEYPEG_DB"] = str(db)
    port = _free_port()
    app = create_app(Store(db))
    # compile the kernels before any test starts (a fresh checkout compiles them once,
    # which takes longer than a test should wait for one answer)
    app.state.service.warm_up()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/rules", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the keypeg server did not start") from None
            time.sleep(0.05)  # polling a starting server, not page synchronisation
    yield url
    srv.should_exit = True
    thread.join(timeout=10)
    if old_db is None:
        os.environ.pop("KEYPEG_DB", None)
    else:
        os.environ["KEYPEG_DB"] = old_db


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    """A fresh page at 1280x800; fails the test on any uncaught script error."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.base_url = server  # type: ignore[attr-defined]
    yield pg
    context.close()
    assert not errors, f"script errors on the page: {errors}"


# ---------------------------------------------------------------------- helpers
def open_page(page: Page, rules: str = "classic", mode: str = "play") -> None:
    page.goto(f"{page.base_url}/?rules={rules}#{mode}")  # type: ignore[attr-defined]
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#rules-select")).to_have_value(rules)


def history_key(history: list[tuple[str, str]]) -> str:
    return ",".join(f"{g}={f}" for g, f in history)


def wait_hints(page: Page, history: list[tuple[str, str]], rules: str | None = None) -> None:
    """Wait until the hints panel shows the position after `history` (under `rules`)."""
    hints = page.locator("#hints")
    if rules is not None:
        expect(hints).to_have_attribute("data-rules", rules)
    expect(hints).to_have_attribute("data-history", history_key(history))
    expect(hints).to_have_attribute("data-state", "ready")


def board_history(page: Page, board: str = "#board") -> list[tuple[str, str]]:
    rows = page.locator(f"{board} .row[data-feedback]")
    return [(r.get_attribute("data-guess") or "", r.get_attribute("data-feedback") or "")
            for r in rows.all()]


def play_guess(page: Page, guess: str, *, click: bool = False) -> tuple[str, str]:
    """Enter `guess` in Play (palette clicks or keys), submit it, return the new row."""
    n = page.locator("#board .row[data-feedback]").count()
    if click:
        for ch in guess:
            page.click(f"#palette-{ch}")
        expect(page.locator("#guess-input")).to_have_value(guess)
        page.click("#submit-guess")
    else:
        page.locator("#guess-input").focus()
        page.keyboard.type(guess)
        expect(page.locator("#guess-input")).to_have_value(guess)
        page.keyboard.press("Enter")
    row = page.locator(f"#board .row[data-feedback][data-index='{n}']")
    expect(row).to_have_attribute("data-guess", guess)
    return guess, row.get_attribute("data-feedback") or ""


def api(page: Page, method: str, path: str, body: object | None = None) -> tuple[int, dict]:
    """Call the app's JSON API directly (for expectations the library cannot give)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{page.base_url}{path}", data=data,  # type: ignore[attr-defined]
                                 method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


# ---------------------------------------------------------------------- tests
def test_play_classic_to_a_win_following_the_hints(page: Page) -> None:
    open_page(page)
    expect(page.locator("#attempts-left")).to_have_text("10 of 10 attempts left")
    history: list[tuple[str, str]] = []
    for turn in range(6):
        wait_hints(page, history)
        optimal = page.locator("#hint-optimal").get_attribute("data-guess")
        guess = optimal or page.locator(
            "#hint-strategies tr[data-strategy='maxsize']").get_attribute("data-guess")
        assert guess and re.fullmatch(r"[1-6]{4}", guess)
        history.append(play_guess(page, guess, click=turn % 2 == 0))
        if history[-1][1] == "4B0W":
            break
    assert history[-1][1] == "4B0W", f"not solved in 6 guesses: {history}"
    assert board_history(page) == history
    result = page.locator("#play-result")
    expect(result).to_be_visible()
    expect(result).to_have_attribute("data-result", "win")
    n = len(history)
    expect(page.locator("#play-result-text")).to_contain_text(
        f"Solved in {n} guess{'es' if n > 1 else ''}")
    expect(page.locator("#secret")).to_have_attribute("data-code", history[-1][0])
    expect(page.locator("#secret")).to_have_text(history[-1][0])
    expect(page.locator("#attempts-left")).to_have_text(f"{10 - n} of 10 attempts left")
    expect(page.locator("#submit-guess")).to_be_disabled()
    # A new game starts clean.
    page.click("#new-game")
    expect(page.locator("#play-result")).to_be_hidden()
    wait_hints(page, [])
    assert board_history(page) == []
    expect(page.locator("#hint-count")).to_have_text("1,296")


def test_hints_panel_matches_the_library(page: Page) -> None:
    rules = find_rules("classic")
    open_page(page)
    history: list[tuple[str, str]] = []
    for guess in ("1122", "3456", None):
        wait_hints(page, history)
        state = GameState.from_clues(rules, [f"{g}={f}" for g, f in history])
        expected = hint(state)
        expect(page.locator("#hint-count")).to_have_attribute("data-count", str(expected.count))
        assert page.locator("#hint-bits").inner_text() == f"{expected.bits:.2f}"
        rows = page.locator("#hint-strategies tbody tr")
        shown = {r.get_attribute("data-strategy"): (r.get_attribute("data-guess"),
                                                    int(r.get_attribute("data-largest") or -1))
                 for r in rows.all()}
        assert set(shown) == {s.name for s in expected.strategies}
        for s in expected.strategies:
            page_guess, page_largest = shown[s.name]
            if s.name == "random":  # a fresh random pick each time: check it is possible
                assert page_guess is not None and state.is_candidate(page_guess)
                continue
            assert (page_guess, page_largest) == (s.guess, s.largest_part), s.name
        # The optimal guess comes from a stored tree or a time-limited search: compare it
        # when both found one.
        shown_optimal = page.locator("#hint-optimal").get_attribute("data-guess")
        if expected.optimal is not None and shown_optimal:
            assert shown_optimal == expected.optimal.guess
        listed = page.locator("#hint-list .chip")
        if expected.candidates is not None:
            assert [c.get_attribute("data-code") for c in listed.all()] == expected.candidates
        else:
            expect(page.locator("#hint-list")).to_be_hidden()
        if guess is None:
            break
        history.append(play_guess(page, guess))

    # The cut of a composed guess: one bar per answer, sizes as the library's cut.
    from keypeg.hints import cut

    page.locator("#guess-input").focus()
    page.keyboard.type("RGBY")  # colour letters: red green blue yellow = 1234
    expect(page.locator("#guess-input")).to_have_value("1234")
    bars = page.locator("#cut-bars")
    expect(bars).to_have_attribute("data-guess", "1234")
    state = GameState.from_clues(rules, [f"{g}={f}" for g, f in history])
    parts = [(r.get_attribute("data-feedback"), int(r.get_attribute("data-size") or 0))
             for r in bars.locator(".cut-row").all()]
    assert parts == cut(state, "1234")
    page.keyboard.press("Backspace")
    expect(page.locator("#guess-input")).to_have_value("123")
    expect(bars).to_have_attribute("data-guess", "")


def test_codebreaker_positional_feedback(page: Page) -> None:
    rules = find_rules("codebreaker-1")
    open_page(page)
    page.select_option("#rules-select", "codebreaker-1")
    expect(page.locator("#attempts-left")).to_have_text("8 of 8 attempts left")
    history: list[tuple[str, str]] = []
    wait_hints(page, history, "codebreaker-1")
    game = page.locator("body").get_attribute("data-game")
    status, body = api(page, "GET", f"/api/games/{game}/hints")
    assert status == 200 and body["candidates"] == rules.size == 30240
    approx = page.locator("#hint-approx")
    if body["approximate"]:
        expect(approx).to_be_visible()
    else:
        expect(approx).to_be_hidden()
    guesses = ["01234", "56789"]
    while page.locator("#play-result").is_hidden():
        guess = guesses.pop(0) if guesses else page.locator(
            "#hint-strategies tr[data-strategy='consistent']").get_attribute("data-guess")
        assert guess is not None
        history.append(play_guess(page, guess, click=len(history) == 1))
        g, fb = history[-1]
        assert re.fullmatch(r"[GA-]{5}", fb), fb
        cells = page.locator(f"#board .row[data-index='{len(history) - 1}'] .cell")
        expect(cells).to_have_count(5)
        assert "".join(c.get_attribute("data-mark") or "?" for c in cells.all()) == fb
        for c, mark in zip(cells.all(), fb, strict=True):
            cls = {"G": "mark-green", "A": "mark-amber", "-": "mark-gray"}[mark]
            assert cls in (c.get_attribute("class") or "")
        wait_hints(page, history)
        expected = GameState.from_clues(rules, [f"{a}={b}" for a, b in history]).count
        expect(page.locator("#hint-count")).to_have_attribute("data-count", str(expected))
        assert len(history) <= 8
    # Over: the secret is revealed; every row's cells are its feedback against the secret.
    secret = page.locator("#secret").get_attribute("data-code") or ""
    assert re.fullmatch(r"\d{5}", secret)
    for g, fb in history:
        assert str(score(Code.parse(secret, rules).symbols, Code.parse(g, rules).symbols,
                         rules)) == fb
    won = history[-1][1] == "GGGGG"
    expect(page.locator("#play-result")).to_have_attribute("data-result", "win" if won else "loss")


def test_watch_maxsize_to_the_end(page: Page) -> None:
    rules = find_rules("classic")
    state = GameState.start(rules)
    strategy = find_strategy("maxsize")
    expected: list[tuple[str, str]] = []
    while not state.solved:
        guess = strategy.next_guess(state)
        state = state.play(guess, "1234")
        expected.append((str(state.history[-1].guess), str(state.history[-1].feedback)))

    open_page(page, mode="watch")
    page.click("#watch-step")  # no secret yet: a visible message, no request
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator("#message-text")).to_contain_text("secret")
    page.select_option("#watch-strategy", "maxsize")
    page.fill("#watch-secret", "1234")
    page.click("#watch-step")
    expect(page.locator("#watch-board .row[data-feedback]")).to_have_count(1)
    expect(page.locator("#watch-secret")).to_be_disabled()
    page.click("#watch-play")
    status = page.locator("#watch-status")
    expect(status).to_have_attribute("data-state", "solved")
    assert board_history(page, "#watch-board") == expected
    assert expected[-1][1] == "4B0W"
    expect(status).to_have_attribute("data-guesses", str(len(expected)))
    expect(status).to_contain_text(f"solved it in {len(expected)} guesses")
    expect(page.locator("#watch-step")).to_be_disabled()
    # Reset clears the board; Random fills in a code of the rules.
    page.click("#watch-reset")
    expect(page.locator("#watch-board .row")).to_have_count(0)
    expect(status).to_have_attribute("data-state", "idle")
    page.click("#watch-random")
    expect(page.locator("#watch-secret")).not_to_have_value("1234")
    expect(page.locator("#watch-secret")).to_have_value(re.compile(r"^[1-6]{4}$"))


def test_lab_totals_match_the_library(page: Page) -> None:
    rules = find_rules("classic")
    trees = evaluate([find_strategy(n) for n in TABLE_STRATEGIES], rules)
    expected = {n: t.summary() for n, t in zip(TABLE_STRATEGIES, trees, strict=True)}
    assert [expected[n]["total"] for n in TABLE_STRATEGIES] == [7471, 5801, 5696, 5722, 5668]

    open_page(page)
    page.click("#mode-lab")
    table = page.locator("#lab-table")
    expect(table).to_have_attribute("data-state", "ready")
    expect(page.locator("#lab-loading")).to_be_hidden()
    expect(page.locator("#lab-note")).to_be_hidden()  # exact for classic
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(len(TABLE_STRATEGIES))
    for row in rows.all():
        name = row.get_attribute("data-strategy") or ""
        want = expected[name]
        assert int(row.get_attribute("data-total") or 0) == want["total"], name
        assert int(row.get_attribute("data-worst") or 0) == want["worst"], name
        assert row.get_attribute("data-first-guess") == want["first_guess"], name
        bars = row.locator(".hist-col")
        assert [int(b.get_attribute("data-count") or -1) for b in bars.all()] == want["histogram"]
    expect(table.locator("tr[data-strategy='parts']")).to_contain_text("5,668")


def test_assist_clues_and_contradiction(page: Page) -> None:
    rules = find_rules("classic")
    open_page(page, mode="assist")
    wait_hints(page, [])

    def add(guess: str, black: int, white: int) -> None:
        page.fill("#assist-guess", guess)
        page.select_option("#assist-black", str(black))
        page.select_option("#assist-white", str(white))
        page.click("#assist-add")

    add("1122", 1, 1)
    wait_hints(page, [("1122", "1B1W")])
    add("3456", 1, 1)
    clues = [("1122", "1B1W"), ("3456", "1B1W")]
    wait_hints(page, clues)
    count = GameState.from_clues(rules, [f"{g}={f}" for g, f in clues]).count
    expect(page.locator("#hint-count")).to_have_attribute("data-count", str(count))
    expect(page.locator("#assist-error")).to_be_hidden()

    # A malformed clue is refused with the server's message, and not added.
    add("1122", 3, 1)
    expect(page.locator("#message-text")).to_contain_text("1122=3B1W not added")
    expect(page.locator("#message-text")).to_contain_text("3B1W cannot happen")
    expect(page.locator("#assist-clues li")).to_have_count(2)

    # A contradictory clue is kept, the error names the suspect clue, hints stop.
    add("1234", 0, 0)
    bad = [*clues, ("1234", "0B0W")]
    status, body = api(page, "POST", "/api/hints",
                       {"rules": "classic", "history": [list(c) for c in bad]})
    assert status == 422
    error = page.locator("#assist-error")
    expect(error).to_be_visible()
    expect(page.locator("#assist-error-text")).to_have_text(
        body["detail"][0].upper() + body["detail"][1:])
    expect(error).to_contain_text("clue 3 (1234=0B0W)")
    expect(page.locator("#assist-clues li[data-index='2']")).to_have_class(re.compile("suspect"))
    expect(page.locator("#hints")).to_have_attribute("data-state", "error")

    # Edit the wrong clue into a consistent one: the error goes, hints come back.
    page.click("#assist-edit-2")
    expect(page.locator("#assist-guess")).to_have_value("1234")
    expect(page.locator("#assist-add")).to_have_text("Update clue 3")
    page.select_option("#assist-black", "0")
    page.select_option("#assist-white", "2")
    page.click("#assist-add")
    fixed = [*clues, ("1234", "0B2W")]
    wait_hints(page, fixed)
    expect(error).to_be_hidden()
    count = GameState.from_clues(rules, [f"{g}={f}" for g, f in fixed]).count
    expect(page.locator("#hint-count")).to_have_attribute("data-count", str(count))

    # Remove a clue.
    page.click("#assist-remove-0")
    wait_hints(page, fixed[1:])
    expect(page.locator("#assist-clues li")).to_have_count(2)


def test_api_errors_are_shown(page: Page) -> None:
    open_page(page)
    # Repeats are refused by bulls-and-cows: the server's sentence appears on the page.
    page.select_option("#rules-select", "bulls-and-cows")
    wait_hints(page, [], "bulls-and-cows")
    page.locator("#guess-input").focus()
    page.keyboard.type("1123")
    page.keyboard.press("Enter")
    expect(page.locator("#message")).to_have_attribute("data-kind", "error")
    game = page.locator("body").get_attribute("data-game")
    status, body = api(page, "POST", f"/api/games/{game}/guesses", {"guess": "1123"})
    assert status == 422
    expect(page.locator("#message-text")).to_contain_text(body["detail"])
    expect(page.locator("#board .row[data-feedback]")).to_have_count(0)
    page.click("#message-close")
    expect(page.locator("#message")).to_be_hidden()


def test_screenshot_play_mid_game(page: Page, tmp_path: Path) -> None:
    open_page(page)
    history: list[tuple[str, str]] = []
    for guess in ("1122", "3456"):
        wait_hints(page, history)
        history.append(play_guess(page, guess))
    wait_hints(page, history)
    page.locator("#guess-input").focus()
    page.keyboard.type(page.locator("#hint-strategies tr[data-strategy='expsize']")
                       .get_attribute("data-guess") or "1234")
    expect(page.locator("#cut-bars")).to_have_attribute("data-state", "ready")
    expect(page.locator("#hint-strategies tbody tr")).to_have_count(6)
    shot = page.screenshot()
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 10_000
    (tmp_path / "screenshot.png").write_bytes(shot)
    if os.environ.get("KEYPEG_UPDATE_SCREENSHOT") or not SCREENSHOT.exists():
        SCREENSHOT.parent.mkdir(exist_ok=True)
        SCREENSHOT.write_bytes(shot)
