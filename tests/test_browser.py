"""Real-browser tests of the web page (Playwright + Debian's chromium).

The app runs on a free loopback port in a background thread; each test opens the page in a
fresh browser context and drives it like a user (clicks and keys), then checks what the page
shows against the library, against the published numbers (`keypeg.published`), or against a
computation of its own. Synchronisation is by Playwright's waiting: the page marks its state
on elements (``#hints[data-state=ready][data-history=...]``, ``data-feedback`` on board
rows, ``#lab-table[data-state=ready]``), so no test sleeps.

Nothing here writes into the checkout: screenshots go to pytest's tmp_path
(scripts/screenshot.py writes docs/screenshot.png).
"""

from __future__ import annotations

import json
import math
import os
import re
import struct
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("KEYPEG_CHROMIUM", "/usr/bin/chromium")
STATIC = Path(__file__).resolve().parent.parent / "src" / "keypeg" / "web" / "static"

if not Path(CHROMIUM).exists() and os.environ.get("KEYPEG_REQUIRE_BROWSER"):
    raise RuntimeError(f"no chromium at {CHROMIUM}, and KEYPEG_REQUIRE_BROWSER is set (CI)")
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"no chromium at {CHROMIUM} (apt-get install chromium, or set KEYPEG_CHROMIUM)",
)

from playwright.sync_api import Browser, Page, Route, expect, sync_playwright  # noqa: E402

from keypeg.codes import Code  # noqa: E402
from keypeg.feedback import score  # noqa: E402
from keypeg.game import GameState  # noqa: E402
from keypeg.hints import hint  # noqa: E402
from keypeg.published import published  # noqa: E402
from keypeg.rules import find_rules  # noqa: E402
from keypeg.solver.search import solve_optimal  # noqa: E402
from keypeg.space import get_space  # noqa: E402
from keypeg.strategies import TABLE_STRATEGIES, evaluate, find_strategy  # noqa: E402

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 20_000
expect.set_options(timeout=TIMEOUT_MS)
VIEWPORTS = [(360, 740), (390, 844), (1280, 900)]
#: Words the page must not leave in the plural after a 1.
COUNTED = ("codes", "guesses", "secrets", "attempts", "answers", "clues", "pegs", "digits",
           "colours", "bulls", "cows", "blacks", "whites", "possible answers")


# ---------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve the app on a free loopback port from a background thread; yield its URL."""
    from keypeg.web.local import serve_locally

    with serve_locally(tmp_path_factory.mktemp("browser") / "keypeg.db") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


class Pages:
    """Opens pages in fresh contexts of any viewport; fails the test on a script error."""

    def __init__(self, browser: Browser, server: str) -> None:
        self.browser, self.server = browser, server
        self.contexts: list = []
        self.errors: list[str] = []

    def open(self, width: int = 1280, height: int = 800) -> Page:
        context = self.browser.new_context(viewport={"width": width, "height": height})
        self.contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(TIMEOUT_MS)
        pg.on("pageerror", lambda exc: self.errors.append(str(exc)))
        pg.base_url = self.server  # type: ignore[attr-defined]
        return pg


@pytest.fixture
def pages(browser: Browser, server: str) -> Iterator[Pages]:
    p = Pages(browser, server)
    yield p
    for c in p.contexts:
        c.close()
    assert not p.errors, f"script errors on the page: {p.errors}"


@pytest.fixture
def page(pages: Pages) -> Page:
    """A fresh page at 1280x800."""
    return pages.open()


# ---------------------------------------------------------------------- helpers
def open_page(page: Page, rules: str = "classic", mode: str = "play") -> None:
    page.goto(f"{page.base_url}/?rules={rules}#{mode}")  # type: ignore[attr-defined]
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#rules-select")).to_have_value(rules)


def show_hints(page: Page) -> None:
    """Open the hints panel in Play (it is hidden until asked for)."""
    toggle = page.locator("#hints-toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    expect(page.locator("#hints")).to_be_visible()


def history_key(history: list[tuple[str, str]]) -> str:
    return ",".join(f"{g}={f}" for g, f in history)


def wait_hints(page: Page, history: list[tuple[str, str]], rules: str | None = None,
               state: str = "ready") -> None:
    """Wait until the hints panel shows the position after `history` (under `rules`), in
    `state` ("ready", or "over" once the game has ended)."""
    hints = page.locator("#hints")
    if rules is not None:
        expect(hints).to_have_attribute("data-rules", rules)
    expect(hints).to_have_attribute("data-history", history_key(history))
    expect(hints).to_have_attribute("data-state", state)


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


def add_clue(page: Page, guess: str, black: int, white: int) -> None:
    page.fill("#assist-guess", guess)
    page.select_option("#assist-black", str(black))
    page.select_option("#assist-white", str(white))
    page.click("#assist-add")


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


def page_text(page: Page) -> str:
    return page.locator("body").inner_text()


def write_recommended(page: Page) -> None:
    """Write the recommended guess (unless the game is over) and wait for its cut bars."""
    if page.locator("#play-result").is_visible():
        return
    page.click("#use-recommended")
    expect(page.locator("#cut-bars")).to_have_attribute("data-state", "ready")


def assert_no_guesses_offered(page: Page) -> None:
    """The game is over: the hints say so and offer no guess to play."""
    hints = page.locator("#hints")
    expect(hints).to_have_attribute("data-state", "over")
    expect(page.locator("#hint-over")).to_be_visible()
    expect(page.get_by_role("button", name="Use", exact=True)).to_have_count(0)
    expect(page.locator("[data-use]:visible, #hint-list .chip:visible")).to_have_count(0)
    expect(page.locator("#hint-recommended")).to_have_attribute("data-guess", "")
    expect(page.locator("#cut-bars .cut-row")).to_have_count(0)
    expect(page.locator("#composer")).to_be_hidden()


# ---------------------------------------------------------------------- play and hints
def test_play_classic_to_a_win_following_the_hints(page: Page) -> None:
    rules = find_rules("classic")
    rows = rules.max_guesses
    created: list[dict] = []
    page.on("request", lambda r: created.append(json.loads(r.post_data or "{}"))
            if r.method == "POST" and r.url.endswith("/api/games") else None)
    open_page(page)
    expect(page.locator("#attempts-left")).to_have_text(f"{rows} of {rows} attempts left")
    show_hints(page)
    history: list[tuple[str, str]] = []
    for turn in range(6):
        wait_hints(page, history)
        guess = page.locator("#hint-recommended").get_attribute("data-guess")
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
    expect(page.locator("#attempts-left")).to_have_text(f"{rows - n} of {rows} attempts left")
    expect(page.locator("#submit-guess")).to_be_disabled()
    assert_no_guesses_offered(page)
    # A new game starts clean, and the page never chose its secret (no seed sent).
    page.click("#new-game")
    expect(page.locator("#play-result")).to_be_hidden()
    wait_hints(page, [])
    assert board_history(page) == []
    expect(page.locator("#hint-count")).to_have_text(f"{6 ** 4:,}")
    assert len(created) == 2 and all(body == {"rules": "classic"} for body in created), created


def test_hints_panel_matches_the_library(page: Page) -> None:
    rules = find_rules("classic")
    open_page(page)
    show_hints(page)
    history: list[tuple[str, str]] = []
    for guess in ("1122", "3456", None):
        wait_hints(page, history)
        state = GameState.from_clues(rules, [f"{g}={f}" for g, f in history])
        expected = hint(state)
        expect(page.locator("#hint-count")).to_have_attribute("data-count", str(expected.count))
        assert page.locator("#hint-bits").inner_text() == f"{expected.bits:.2f}"
        rows = page.locator("#hint-strategies tbody tr:not([data-strategy='optimal'])")
        shown = [(r.get_attribute("data-strategy"), r.get_attribute("data-guess"),
                  int(r.get_attribute("data-largest") or -1)) for r in rows.all()]
        assert [s[0] for s in shown] == [s.name for s in expected.strategies]
        for (name, page_guess, page_largest), s in zip(shown, expected.strategies, strict=True):
            if name == "random":  # a fresh random pick each time: check it is possible
                assert page_guess is not None and state.is_candidate(page_guess)
                continue
            assert (page_guess, page_largest) == (s.guess, s.largest_part), name
        # The optimal guess comes from a stored tree or a time-limited search: compare it
        # when both found one.
        recommended = page.locator("#hint-recommended")
        if expected.optimal is not None and recommended.get_attribute("data-strategy") == "optimal":
            expect(recommended).to_have_attribute("data-guess", expected.optimal.guess)
        listed = page.locator("#hint-list .chip")
        if expected.candidates is not None:
            assert [c.get_attribute("data-code") for c in listed.all()] == expected.candidates
        else:
            expect(page.locator("#hint-list")).to_be_hidden()
        if guess is None:
            break
        history.append(play_guess(page, guess))

    # The cut of a composed guess: one bar per answer, sizes as the library's cut, a legend.
    from keypeg.hints import cut

    legend = page.locator("#cut-legend")
    expect(legend).to_be_hidden()
    page.locator("#guess-input").focus()
    page.keyboard.type("RGBY")  # colour letters: red green blue yellow = 1234
    expect(page.locator("#guess-input")).to_have_value("1234")
    bars = page.locator("#cut-bars")
    expect(bars).to_have_attribute("data-guess", "1234")
    state = GameState.from_clues(rules, [f"{g}={f}" for g, f in history])
    parts = [(r.get_attribute("data-feedback"), int(r.get_attribute("data-size") or 0))
             for r in bars.locator(".cut-row").all()]
    assert parts == cut(state, "1234")
    expect(legend).to_be_visible()
    for words in ("worst answer", "answer that wins"):
        expect(legend).to_contain_text(words)
    expect(bars.locator(".cut-row.largest").first).to_be_visible()
    # every bar starts at one edge and is as long at full size (each row had sized its
    # label column to its own label: the bars started 13 px apart)
    edges = {(round(box["x"]), round(box["width"])) for box in
             (t.bounding_box() for t in bars.locator(".bar-track").all()) if box}
    assert len(edges) == 1, edges
    page.keyboard.press("Backspace")
    expect(page.locator("#guess-input")).to_have_value("123")
    expect(bars).to_have_attribute("data-guess", "")


def test_strategies_strongest_first_after_the_recommended_guess(page: Page) -> None:
    open_page(page)
    show_hints(page)
    wait_hints(page, [])
    status, body = api(page, "POST", "/api/hints", {"rules": "classic", "history": []})
    assert status == 200
    recommended = body.get("recommended") or body["optimal"] or body["strategies"][0]
    box = page.locator("#hint-recommended")
    expect(box).to_have_attribute("data-guess", recommended["guess"])
    expect(box.locator("#use-recommended")).to_be_visible()
    # The recommended guess comes first: before the strategies, and first in their table.
    first_use = page.locator("#hints [data-use]").first
    expect(first_use).to_have_attribute("data-use", recommended["guess"])
    rows = page.locator("#hint-strategies tbody tr")
    expect(rows.first).to_have_attribute("data-strategy", recommended["name"])
    expect(rows.first).to_have_class(re.compile("recommended"))
    names = [r.get_attribute("data-strategy") for r in rows.all()]
    assert names[0] != "consistent"
    # Strongest first: the strategies the published table measures come in the order of
    # their published totals (fewest guesses in all first).
    totals = published()["evaluate"]["classic"]["all_probes"]
    measured = [n for n in names if n in totals]
    assert measured == sorted(totals, key=lambda n: totals[n]["total"]), names
    assert [n for n in names if n != "optimal"] == [s["name"] for s in body["strategies"]]


def test_hints_are_hidden_until_asked_for_and_the_choice_is_kept(page: Page) -> None:
    open_page(page)
    hints = page.locator("#hints")
    toggle = page.locator("#hints-toggle")
    expect(hints).to_be_hidden()
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    wait_hints(page, [])
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    wait_hints(page, [])  # still shown after a reload
    expect(toggle).to_have_attribute("aria-expanded", "true")
    page.click("#hints-close")
    expect(hints).to_be_hidden()
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(hints).to_be_hidden()  # still hidden after a reload
    assert page.evaluate("localStorage.getItem('keypeg.hints')") == "hidden"


PHONES = VIEWPORTS[:2]


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
@pytest.mark.parametrize("mode", ["play", "assist"])
def test_hints_are_reachable_on_a_phone(pages: Pages, mode: str, size: tuple[int, int]) -> None:
    page = pages.open(*size)
    open_page(page, mode=mode)
    height = page.evaluate("innerHeight")
    if mode == "play":
        toggle = page.locator("#hints-toggle")
        expect(toggle).to_be_visible()
        assert toggle.bounding_box()["y"] + toggle.bounding_box()["height"] <= height  # type: ignore[index]
        toggle.click()
        history = [play_guess(page, g) for g in ("1122", "3456", "1314")
                   if not page.locator("#play-result").is_visible()]
    else:
        add_clue(page, "1122", 1, 1)
        add_clue(page, "3456", 1, 1)
        history = [("1122", "1B1W"), ("3456", "1B1W")]
    # a random secret may be one of the guesses: the game is then over (no suggestions)
    won = mode == "play" and page.locator("#play-result").is_visible()
    wait_hints(page, history, state="over" if won else "ready")
    # the top of the hints panel on the page (not after scrolling): within one screen
    top = page.evaluate("document.querySelector('#hints').getBoundingClientRect().top + scrollY")
    assert top < height, f"the hints start {top:.0f} px down a {height} px screen"


def test_no_guesses_offered_once_the_game_is_over(page: Page) -> None:
    rules = find_rules("codebreaker-3")
    open_page(page, "codebreaker-3")
    show_hints(page)
    wait_hints(page, [], "codebreaker-3")
    # Lost (or, by luck, won): guesses until the rows run out (a new one each time: the
    # same guess again uses no row).
    for code in ["01234", "12340", "23401", "34012", "40123", "56789", "67895", "78956",
                 "89567", "95678"][:rules.max_guesses or 0]:
        if page.locator("#play-result").is_visible():
            break
        play_guess(page, code)
    expect(page.locator("#play-result")).to_be_visible()
    assert_no_guesses_offered(page)
    # Given up.
    page.click("#new-game")
    wait_hints(page, [])
    expect(page.get_by_role("button", name="Use", exact=True).first).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())  # "Give up this game? ..."
    page.click("#give-up")
    expect(page.locator("#play-result")).to_have_attribute("data-result", "gave-up")
    expect(page.locator("#secret")).to_have_attribute("data-code", re.compile(r"^\d{5}$"))
    assert_no_guesses_offered(page)
    page.locator("body").press("1")  # a key typed now is refused, visibly
    expect(page.locator("#message-text")).to_contain_text("New game")
    expect(page.locator("#guess-slots .peg, #guess-slots .digit")).to_have_count(0)



def _first_guess_not_winning(page: Page, guess: str) -> tuple[str, str]:
    """Play `guess` as the first guess of a game it does not win (a new game otherwise)."""
    played = play_guess(page, guess)
    while page.locator("#play-result").is_visible():  # the random secret was `guess`
        page.click("#new-game")
        expect(page.locator("#board .row[data-feedback]")).to_have_count(0)
        played = play_guess(page, guess)
    return played


def test_new_game_asks_before_leaving_a_game_in_play(page: Page) -> None:
    open_page(page, "classic")
    _first_guess_not_winning(page, "1122")
    rows = page.locator("#board .row[data-feedback]")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("#new-game")
    assert asked == ["Start a new game? This one (1 guess so far) is left unfinished and "
                     "its secret is not shown."]
    expect(rows).to_have_count(1)  # kept
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#new-game")
    expect(rows).to_have_count(0)


def test_a_half_written_guess_survives_a_reload(page: Page) -> None:
    open_page(page, "classic")
    _first_guess_not_winning(page, "1122")
    page.locator("#guess-input").focus()
    page.keyboard.type("34")
    expect(page.locator("#guess-input")).to_have_value("34")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#board .row[data-feedback]")).to_have_count(1)  # the game, resumed
    expect(page.locator("#guess-input")).to_have_value("34")  # and the guess being written
    page.locator("#guess-input").focus()
    page.keyboard.type("56")
    page.keyboard.press("Enter")
    expect(page.locator("#board .row[data-feedback]")).to_have_count(2)
    page.reload()  # played: nothing is brought back (the game resumed, or a new one)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#guess-input")).to_have_value("")

def test_a_game_given_up_in_another_tab_shows_how_it_ended(page: Page) -> None:
    """A guess in a second tab after the game was given up in the first said 'Out of
    attempts' (mini has no row limit) with the secret hidden."""
    open_page(page, "mini")
    _first_guess_not_winning(page, "1122")
    other = page.context.new_page()
    other.base_url = page.base_url  # type: ignore[attr-defined]
    open_page(other, "mini")  # the same game, resumed
    expect(other.locator("#board .row[data-feedback]")).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.accept())  # "Give up this game? ..."
    page.click("#give-up")
    expect(page.locator("#play-result")).to_have_attribute("data-result", "gave-up")
    secret = page.locator("#secret").get_attribute("data-code")
    other.locator("#guess-input").focus()
    other.keyboard.type("3344")
    other.keyboard.press("Enter")
    expect(other.locator("#play-result")).to_have_attribute("data-result", "gave-up")
    expect(other.locator("#secret")).to_have_attribute("data-code", secret or "")
    expect(other.locator("#board .row[data-feedback]")).to_have_count(1)
    other.close()

# ---------------------------------------------------------------------- notation
def test_bulls_and_cows_speaks_bulls_and_cows(page: Page) -> None:
    open_page(page, "bulls-and-cows")
    guess, fb = play_guess(page, "0123")
    row = page.locator("#board .row[data-index='0']")
    bulls, cows = (int(x) for x in re.fullmatch(r"(\d)B(\d)W", fb).groups())  # type: ignore[union-attr]
    words = f"{bulls} bull{'' if bulls == 1 else 's'}, {cows} cow{'' if cows == 1 else 's'}"
    expect(row.locator(".fb-text")).to_have_text(words)
    page.click("#mode-assist")
    expect(page.locator("#assist-bw")).to_contain_text("Bulls")
    expect(page.locator("#assist-bw")).to_contain_text("Cows")
    add_clue(page, "0123", 1, 2)
    wait_hints(page, [("0123", "1B2W")])
    expect(page.locator("#assist-clues li[data-index='0']")).to_contain_text("1 bull, 2 cows")
    page.locator("#assist-guess").focus()
    page.keyboard.type("4567")
    expect(page.locator("#cut-bars")).to_have_attribute("data-state", "ready")
    labels = page.locator("#cut-bars .fb-label-text").all_inner_texts()
    assert labels and all(re.fullmatch(r"\d bulls?, \d cows?", t) for t in labels), labels
    text = page_text(page).lower()
    assert "bull" in text and "cow" in text
    assert not re.search(r"\b(black|white)s?\b", text), "black/white words in a bulls-and-cows page"


def test_no_repeat_palette_and_refused_keys(page: Page) -> None:
    open_page(page, "bulls-and-cows")
    note = page.locator("#play-note")
    page.locator("#guess-input").focus()
    page.keyboard.type("1")
    expect(page.locator("#guess-input")).to_have_value("1")
    expect(page.locator("#palette-1")).to_be_disabled()
    expect(page.locator("#palette-2")).to_be_enabled()
    expect(note).to_be_hidden()
    page.keyboard.type("1")  # a repeat: refused, and the page says why
    expect(page.locator("#guess-input")).to_have_value("1")
    expect(note).to_be_visible()
    expect(note).to_contain_text("already in this code")
    page.keyboard.type("x")  # not a digit
    expect(note).to_contain_text('"x" is not a digit')
    page.keyboard.type("234")
    expect(page.locator("#guess-input")).to_have_value("1234")
    expect(note).to_be_hidden()
    page.keyboard.type("5")  # the code is full
    expect(note).to_contain_text("full")
    expect(page.locator("#guess-input")).to_have_value("1234")
    # Keys typed with the focus outside the text box are checked the same way.
    page.click("#backspace")
    page.locator("#panel-play h2").click()
    page.keyboard.press("2")
    expect(note).to_contain_text("already in this code")
    expect(page.locator("#guess-input")).to_have_value("123")
    # Classic allows repeats, but not a symbol outside its six colours.
    open_page(page, "classic")
    page.locator("#guess-input").focus()
    page.keyboard.type("119")
    expect(page.locator("#guess-input")).to_have_value("11")
    expect(page.locator("#palette-1")).to_be_enabled()
    expect(note).to_contain_text('"9" is not a colour')


def test_assist_has_the_play_palette(page: Page) -> None:
    for rules in ("classic", "super", "bulls-and-cows"):
        open_page(page, rules)

        def palette(sel: str) -> list[tuple[str | None, str | None]]:
            return [(b.get_attribute("data-symbol"),
                     b.locator(".peg, .digit").first.get_attribute("data-color"))
                    for b in page.locator(f"{sel} .palette-btn").all()]

        play = palette("#palette")
        assert len(play) == find_rules(rules).colors
        page.click("#mode-assist")
        assert palette("#assist-palette") == play
        page.click("#assist-palette-2")
        expect(page.locator("#assist-guess")).to_have_value("2")


CONTRAST_JS = """(sel) => {
  const parse = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const background = (e) => {
    for (let n = e; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c.a > 0) return c;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const out = [];
  for (const host of document.querySelectorAll(sel)) {
    if (!host.checkVisibility()) continue;
    for (const n of [host, ...host.querySelectorAll("*")]) {
      const own = [...n.childNodes].some((t) => t.nodeType === 3 && t.textContent.trim());
      if (!own || !n.checkVisibility()) continue;
      const a = lum(parse(getComputedStyle(n).color));
      const b = lum(background(n));
      out.push({ where: host.className + " " + (host.dataset.color || host.dataset.mark || ""),
                 text: n.textContent.trim(),
                 ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) });
    }
  }
  return out;
}"""
COLOURED = ".peg, .cell[class*='mark-'], .palette-btn"


def contrast(page: Page) -> list[dict]:
    return page.evaluate(CONTRAST_JS, COLOURED)


def test_text_on_coloured_cells_has_contrast(page: Page) -> None:
    measured: list[dict] = []
    for rules, guess in (("classic", "1234"), ("super", "56781"), ("codebreaker-1", "01234")):
        open_page(page, rules)
        play_guess(page, guess)
        measured += contrast(page)
    # every mark of the per-peg answers, in Assist
    page.click("#mode-assist")
    page.fill("#assist-guess", "56789")
    page.click("#assist-mark-1")
    for _ in range(2):
        page.click("#assist-mark-2")
    measured += contrast(page)
    kinds = {m["where"].split()[-1] for m in measured}
    assert {"red", "green", "blue", "yellow", "orange", "purple", "white", "black"} <= kinds
    assert {"G", "A", "-"} <= kinds
    low = [m for m in measured if m["ratio"] < 4.5]
    assert not low, f"text below 4.5:1 on coloured cells: {low[:8]}"


# ---------------------------------------------------------------------- layout
OVERFLOW_JS = """() => {
  const vw = document.documentElement.clientWidth;
  const scrolls = (e, stop) => {
    for (let p = e.parentElement; p && p !== stop && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== "visible") return true;
    }
    return false;
  };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (typeof e.className === "string" && e.className.trim()
      ? "." + e.className.trim().split(/\\s+/).join(".") : "");
  const bad = [];
  const wide = innerWidth >= 1000;
  for (const e of document.body.querySelectorAll("*")) {
    if (!e.checkVisibility()) continue;
    // a box that scrolls sideways on its own is allowed on a phone, but not in the hints
    // (a table that spills) and not on a wide screen
    const own = getComputedStyle(e).overflowX;
    if ((own === "auto" || own === "scroll") && e.scrollWidth > e.clientWidth + 1
        && (wide || e.closest("#hints"))) {
      bad.push(`${name(e)} scrolls sideways (${e.scrollWidth} > ${e.clientWidth})`);
    }
    const r = e.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    if ((r.right > vw + 0.5 || r.left < -0.5) && !scrolls(e, null)) {
      bad.push(`${name(e)} spans ${r.left.toFixed(0)}..${r.right.toFixed(0)} of ${vw}`);
      continue;
    }
    const panel = e.parentElement && e.parentElement.closest(".panel, .hints, .topbar");
    if (!panel) continue;
    const p = panel.getBoundingClientRect();
    if (r.right > p.right + 0.5 && !scrolls(e, panel)) {
      bad.push(`${name(e)} ends at ${r.right.toFixed(0)}, `
        + `beyond ${name(panel)} at ${p.right.toFixed(0)}`);
    }
  }
  const s = document.querySelector("#rules-select");
  const cs = getComputedStyle(s);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const label = s.options[s.selectedIndex].text;
  const need = ctx.measureText(label).width + parseFloat(cs.paddingLeft)
    + parseFloat(cs.paddingRight) + 18;
  if (need > s.clientWidth) {
    bad.push(`the rules menu cuts "${label}" (${need.toFixed(0)} > ${s.clientWidth})`);
  }
  return { scrollWidth: document.documentElement.scrollWidth, width: innerWidth, bad };
}"""


def assert_fits(page: Page, where: str) -> None:
    got = page.evaluate(OVERFLOW_JS)
    assert got["scrollWidth"] <= got["width"], f"{where}: the page scrolls sideways {got}"
    assert not got["bad"], f"{where}: {got['bad']}"


@pytest.mark.parametrize("size", VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_no_horizontal_overflow(pages: Pages, size: tuple[int, int]) -> None:
    page = pages.open(*size)
    for rules, first in (("classic", "1122"), ("codebreaker-4", "01234")):
        # Play with the hints shown: a guess played, the recommended one written (the cut
        # bars and, here, "probe" tags show).
        open_page(page, rules)
        show_hints(page)
        history = [play_guess(page, first)]
        while page.locator("#play-result").is_visible():  # the random secret was `first`
            # (a reload would resume the finished game: start a new one)
            page.click("#new-game")
            wait_hints(page, [])
            history = [play_guess(page, first)]
        wait_hints(page, history)
        write_recommended(page)
        assert_fits(page, f"{rules} play")
    open_page(page, "classic", "watch")
    page.fill("#watch-secret", "1234")
    page.click("#watch-play")
    expect(page.locator("#watch-status")).to_have_attribute("data-state", "solved")
    assert_fits(page, "watch")
    page.click("#mode-lab")
    expect(page.locator("#lab-table")).to_have_attribute("data-state", "ready")
    assert_fits(page, "lab")
    page.click("#mode-assist")
    add_clue(page, "1122", 1, 1)
    add_clue(page, "1234", 0, 0)  # a contradiction: the long error box
    expect(page.locator("#assist-error")).to_be_visible()
    assert_fits(page, "assist")


PHONE_FIT_JS = """() => {
  const box = document.querySelector("#explorer .table-scroll");
  const rows = [...document.querySelectorAll("#explorer .answers-table tbody tr")];
  const out = rows.flatMap((tr) => [...tr.children].filter((td) => {
    const r = td.getBoundingClientRect();
    return r.left < -0.5 || r.right > innerWidth + 0.5;
  }).map((td) => `${tr.dataset.answer} ${td.className}`));
  const tall = [...document.querySelectorAll("#explorer .answers-table .fb-label-text")]
    .filter((t) => t.getBoundingClientRect().height
      > 2 * parseFloat(getComputedStyle(t).fontSize))
    .map((t) => t.textContent);
  const firsts = [...document.querySelectorAll("#lab-table tbody .c-first")]
    .map((td) => getComputedStyle(td, "::before").content);
  return { sideways: box.scrollWidth - box.clientWidth, out, tall, firsts, rows: rows.length };
}"""


def test_the_lab_and_the_explorer_read_on_a_phone(pages: Pages) -> None:
    """At 390 px the explorer's six columns had run out of the screen (Worst and the next
    guess behind a sideways scroll, each answer on three lines) and the lab's first guess
    stood unnamed in a corner: the answers are cards, each whole on the screen, and the
    first guess says what it is. On a wide screen the explorer stays a table."""
    page = pages.open(390, 844)
    open_page(page, "classic", "lab")
    expect(page.locator("#lab-table")).to_have_attribute("data-state", "ready")
    page.click("#explorer-open")
    expect(page.locator("#explorer")).to_have_attribute("data-state", "ready")
    got = page.evaluate(PHONE_FIT_JS)
    assert got["rows"] == 14 and got["sideways"] <= 1 and not got["out"], got
    assert not got["tall"], got
    assert got["firsts"] and all("First guess" in f for f in got["firsts"]), got
    wide = pages.open(1280, 900)
    open_page(wide, "classic", "lab")
    wide.click("#explorer-open")
    expect(wide.locator("#explorer")).to_have_attribute("data-state", "ready")
    expect(wide.locator("#explorer .answers-table thead th")).to_have_count(6)
    assert wide.locator("#explorer .answers-table").evaluate(
        "t => getComputedStyle(t).display") == "table"


def test_header_says_each_thing_once(page: Page) -> None:
    for name in ("classic", "codebreaker-4", "mini"):
        open_page(page, name)
        rules = find_rules(name)
        text = page.locator("#rules-desc").inner_text()
        if rules.max_guesses:
            said = re.findall(rf"\b{rules.max_guesses} (guesses|rows|attempts)\b", text)
            assert len(said) == 1, text
        assert "rows" not in text or "guesses" not in text, text
        assert f"{rules.size:,} code" in text


# ---------------------------------------------------------------------- words
def test_page_words_are_plural_right_and_never_table_sizes(page: Page) -> None:
    # One code left (the library says which clue leaves one), in Assist.
    rules = find_rules("classic")
    clue = ("1122", "0B4W")
    state = GameState.from_clues(rules, ["=".join(clue)])
    assert state.count == 1 and not state.solved
    open_page(page, mode="assist")
    add_clue(page, clue[0], 0, 4)
    wait_hints(page, [clue])
    expect(page.locator("#hint-count-label")).to_have_text("code still possible")
    page.locator("#assist-guess").focus()
    page.keyboard.type(state.candidate_texts()[0])
    expect(page.locator("#cut-bars")).to_have_attribute("data-state", "ready")
    texts = [page_text(page)]
    # Watch in one guess; a game over in one guess
    page.click("#mode-watch")
    page.fill("#watch-secret", "1123")
    page.select_option("#watch-strategy", "optimal")
    page.click("#watch-step")
    expect(page.locator("#watch-status")).to_have_attribute("data-state", "solved")
    texts.append(page_text(page))
    # Where the optimal guess is missing (a server that has none for codebreaker-1 after
    # one clue, as keypeg once had), even one that explains it with a table size (as
    # keypeg's once did) gets player's words on the page.
    def technical_note(route: Route) -> None:
        res = route.fetch()
        body = res.json()
        if not body.get("solved"):
            if body.get("recommended") == body.get("optimal"):
                body["recommended"] = body["strategies"][0]
            body["optimal"] = None
            body["optimal_note"] = ("a live optimal search here needs this game's full "
                                    "feedback table (872 MB), which is not loaded.")
        route.fulfill(response=res, json=body)

    page.route(re.compile(r".*/api/hints$"), technical_note)
    open_page(page, "codebreaker-1", "assist")
    page.fill("#assist-guess", "01234")
    for i, clicks in enumerate((2, 1, 0, 0, 1)):
        for _ in range(clicks):
            page.click(f"#assist-mark-{i}")
    page.click("#assist-add")
    wait_hints(page, [("01234", "GA--A")], "codebreaker-1")
    expect(page.locator("#hint-optimal-note")).to_be_visible()
    texts.append(page_text(page))
    for text in texts:
        assert not re.search(r"\b\d+(\.\d+)?\s*[KMG]i?B\b", text), text
        for word in COUNTED:
            assert not re.search(rf"(?<![\d.,])1 {word}\b", text), f"'1 {word}' in: {text}"


# ---------------------------------------------------------------------- watch and lab
def record_messages(page: Page) -> None:
    """Keep every text the message area shows from now on in `window.shown`."""
    page.evaluate("""() => { window.shown = [];
        new MutationObserver(() => window.shown.push(
            document.querySelector('#message-text').textContent)).observe(
            document.querySelector('#message-text'), { childList: true, subtree: true,
                                                       characterData: true }); }""")


def test_watch_optimal_plays_on_where_it_is_out_of_reach(page: Page) -> None:
    """Optimal in Watch stopped with 'Watch step failed: the best possible guess is worked
    out live once at most 600 codes are possible' on super, mm-6-9 and mm-8-8; it now plays
    to the end, approximate while the optimum is out of reach, and says why once, until the
    optimum is in reach again."""
    open_page(page, "super", "watch")
    page.select_option("#watch-strategy", "optimal")
    page.fill("#watch-secret", "52341")
    page.click("#watch-step")
    expect(page.locator("#watch-board .row[data-feedback]")).to_have_count(1)
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator("#message")).to_have_attribute("data-kind", "info")
    expect(page.locator("#message-text")).to_contain_text("32,768 are now")
    expect(page.locator("#message-text")).to_contain_text("entropy's guess")
    # again from the start with Play: the note (shown by its first step) and its "32,768
    # are now" go once the optimum is in reach again (they stayed, stale, after the secret
    # was found; Step and Play clear messages as they start, so only Play from the first
    # guess showed it)
    page.click("#watch-reset")
    page.fill("#watch-secret", "52341")
    record_messages(page)
    page.click("#watch-play")
    status = page.locator("#watch-status")
    expect(status).to_have_attribute("data-state", "solved", timeout=60_000)
    expect(status).to_contain_text("approximate play")
    rows = board_history(page, "#watch-board")
    assert rows[-1] == ("52341", "5B0W") and len(rows) <= 8, rows
    expect(page.locator("#message")).to_be_hidden()
    assert any("32,768 are now" in text for text in page.evaluate("window.shown"))


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
    # (the server draws it: wait for its answer, which may be 1234 again, 1 in 1,296)
    with page.expect_response(re.compile(r".*/api/watch/secret.*"), timeout=30_000) as drawn:
        page.click("#watch-random")
    secret = drawn.value.json()["secret"]
    assert re.fullmatch(r"[1-6]{4}", secret)
    expect(page.locator("#watch-secret")).to_have_value(secret)


def test_lab_totals_match_the_library_and_the_published_table(page: Page) -> None:
    rules = find_rules("classic")
    trees = evaluate([find_strategy(n) for n in TABLE_STRATEGIES], rules)
    expected = {n: t.summary() for n, t in zip(TABLE_STRATEGIES, trees, strict=True)}
    table_values = published()["evaluate"]["classic"]["all_probes"]
    for name in TABLE_STRATEGIES:
        for key in ("total", "worst", "first_guess", "histogram"):
            assert expected[name][key] == table_values[name][key], (name, key)

    open_page(page)
    page.click("#mode-lab")
    table = page.locator("#lab-table")
    expect(table).to_have_attribute("data-state", "ready")
    expect(page.locator("#lab-loading")).to_be_hidden()
    expect(page.locator("#lab-note")).to_be_hidden()  # exact for classic
    rows = table.locator("tbody tr:not([data-strategy='optimal'])")
    expect(rows).to_have_count(len(TABLE_STRATEGIES))
    for row in rows.all():
        name = row.get_attribute("data-strategy") or ""
        want = expected[name]
        assert int(row.get_attribute("data-total") or 0) == want["total"], name
        assert int(row.get_attribute("data-worst") or 0) == want["worst"], name
        assert row.get_attribute("data-first-guess") == want["first_guess"], name
        bars = row.locator(".hist-col")
        assert [int(b.get_attribute("data-count") or -1) for b in bars.all()] == want["histogram"]
    parts = table_values["parts"]["total"]
    expect(table.locator("tr[data-strategy='parts']")).to_contain_text(f"{parts:,}")


def test_lab_shows_the_optimal_row_first_and_explains_its_columns(page: Page) -> None:
    """Where the optimum is known the lab has an "optimal" row: the page puts it first and
    marks it. (A server that does not send one yet gets it added from the published
    optimum, so the test checks the page either way.)"""
    best = published()["optimal"]["classic"]
    secrets = 6 ** 4

    def with_optimal(route: Route) -> None:
        res = route.fetch()
        body = res.json()
        if not any(r["strategy"] == "optimal" for r in body["rows"]):
            body["rows"].append({"strategy": "optimal", "first_guess": best["first_guess"],
                                 "total": best["total"], "mean": round(best["total"] / secrets, 4),
                                 "worst": best["worst"], "histogram": best["histogram"]})
        route.fulfill(response=res, json=body)

    page.route(re.compile(r".*/api/lab\?rules=classic$"), with_optimal)
    open_page(page, mode="lab")
    table = page.locator("#lab-table")
    expect(table).to_have_attribute("data-state", "ready")
    first = table.locator("tbody tr").first
    expect(first).to_have_attribute("data-strategy", "optimal")
    expect(first).to_have_attribute("data-total", str(best["total"]))
    expect(first).to_contain_text("best possible")
    expect(first).to_contain_text(f"{best['total']:,}")
    expect(page.locator("#lab-optimal-missing")).to_be_hidden()
    legend = page.locator("#lab-legend")
    expect(legend).to_be_visible()
    headers = table.locator("thead th").all_inner_texts()
    terms = legend.locator("dt").all_inner_texts()
    for header in headers:
        if header.strip() != "Strategy":
            assert any(header.strip() in t for t in terms), (header, terms)


def test_tree_explorer_follows_a_secret_to_its_leaf(page: Page) -> None:
    """Open the explorer on classic's optimal tree from the lab and follow one secret's
    answers down to the guess that finds it; at each node the secrets, total and worst case
    shown are those of the library's tree replayed over the secrets that reach it. Then
    back through the breadcrumbs, and the search box shows another secret's path."""
    from keypeg.space import get_space

    rules = find_rules("classic")
    space = get_space(rules)
    tree = find_strategy("optimal").tree(rules)
    assert tree.total == published()["optimal"]["classic"]["total"]
    depths = tree.depths(space)  # guesses each secret needs, by playing the tree
    secret = space.text(int(depths.argmax()))  # one of the secrets that need the most
    win = str(space.feedback(space.win))

    open_page(page, mode="lab")
    expect(page.locator("#lab-table")).to_have_attribute("data-state", "ready")
    page.click("#lab-table tr[data-strategy='optimal'] [data-explore]")
    box = page.locator("#explorer")
    expect(box).to_have_attribute("data-node", "0")
    expect(box).to_have_attribute("data-state", "ready")
    # the rules by their name (it had said "optimal on classic")
    expect(page.locator("#explorer-summary")).to_contain_text(
        f"optimal on Mastermind: first guess {space.text(int(tree.guess[0]))}, "
        f"{tree.total:,} guesses")
    cands = space.all()
    for step in range(1, 20):
        head = page.locator("#explorer-node .node-head")
        total, worst = int(depths[cands].sum()), int(depths[cands].max())
        expect(head).to_have_attribute("data-size", str(cands.size))
        expect(head).to_have_attribute("data-total", str(total))
        expect(head).to_have_attribute("data-worst", str(worst))
        expect(head).to_contain_text(f"total {total:,}")
        expect(page.locator("#explorer-crumbs .crumb")).to_have_count(step)
        guess = head.get_attribute("data-guess") or ""
        answer = str(score(Code.parse(secret, rules).symbols, Code.parse(guess, rules).symbols,
                           rules))
        if answer == win:
            break
        part = space.filter(cands, space.index(guess), space.response_index(answer))
        row = page.locator(f"#explorer-node tr[data-answer='{answer}']")
        expect(row).to_have_attribute("data-size", str(part.size))
        expect(row).to_have_attribute("data-total", str(int(depths[part].sum())))
        expect(row).to_contain_text(f"{int(depths[part].sum()):,}")
        node = row.get_attribute("data-node")
        row.locator(".answer-open").click()
        expect(box).to_have_attribute("data-node", node or "?")
        expect(box).to_have_attribute("data-state", "ready")
        cands = part
    assert space.texts(cands) == [secret] and step == int(depths.max())
    expect(page.locator("#explorer-node")).to_contain_text(f"found on guess {step}")
    # back to the first guess through the breadcrumbs
    page.locator("#explorer-crumbs .crumb").first.click()
    expect(box).to_have_attribute("data-node", "0")
    expect(page.locator("#explorer-node .node-head")).to_have_attribute(
        "data-total", str(tree.total))
    # on a phone's width an answer and "found on guess 2" stay inside their cell, one
    # above the other (the answer's words had run under the words after them)
    page.set_viewport_size({"width": 375, "height": 740})
    page.locator("#explorer-node tr[data-answer='1B1W'] .answer-open").click()
    expect(box).to_have_attribute("data-state", "ready")
    found = page.locator("#explorer-node .found")
    cell = page.locator("#explorer-node tr.win td.c-answer")
    label = found.locator(".fb-label-text")
    f, c, t = found.bounding_box(), cell.bounding_box(), label.bounding_box()
    held = found.locator(".fb-label").bounding_box()
    assert f and c and t and held, (f, c, t, held)
    assert t["x"] + t["width"] <= held["x"] + held["width"] + 0.5, (t, held)
    assert f["x"] + f["width"] <= c["x"] + c["width"] + 0.5, (f, c)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator("#explorer-crumbs .crumb").first.click()
    expect(box).to_have_attribute("data-node", "0")
    # the search box: the path of another secret, marked
    other = "6543"
    page.fill("#explorer-secret", other)
    page.click("#explorer-find-button")
    expect(box).to_have_attribute("data-secret", other)
    expect(box).to_have_attribute("data-state", "ready")
    crumbs = page.locator("#explorer-crumbs .crumb")
    expect(crumbs).to_have_count(int(depths[space.index(other)]))
    assert crumbs.last.get_attribute("data-guess") == other
    assert page.locator("#explorer-crumbs .crumb.on-path").count() == crumbs.count()
    # read as the other code boxes read it: separators skipped (the server refused '-')
    page.fill("#explorer-secret", "1 1-2-2")
    page.click("#explorer-find-button")
    expect(box).to_have_attribute("data-secret", "1122")
    expect(box).to_have_attribute("data-state", "ready")
    expect(crumbs).to_have_count(int(depths[space.index("1122")]))
    page.fill("#explorer-secret", "")
    page.click("#explorer-find-button")
    example = (page.locator("#explorer-secret").get_attribute("placeholder") or "")[5:]
    expect(page.locator("#explorer-note")).to_have_text(f"Write a secret, e.g. {example}.")


def test_a_sampled_lab_names_no_best_strategy(page: Page) -> None:
    """On a sample the Lab had marked a strategy "best strategy" (maxsize on MM(8,8), by
    one guess over 30 secrets) and shown seconds to the thousandth; an exact lab keeps
    its mark. MM(6,9)'s table showed its 100-secret sample (expsize, second best, last),
    its exact walks only in the note: the exact rows are the table now, the genetic
    algorithm's sampled row marked so, and the best is the walks' (big_walks.json)."""
    import json
    from importlib import resources

    open_page(page, "mm-8-8", "lab")
    expect(page.locator("#lab-table")).to_have_attribute("data-state", "ready", timeout=60_000)
    expect(page.locator("#lab-meta")).to_have_text(re.compile(r"^approximate · "))
    expect(page.locator("#lab-meta")).not_to_have_text(re.compile(r"\.\d{3} s"))
    expect(page.locator("#lab-table .tag", has_text="best strategy")).to_have_count(0)
    open_page(page, "mm-6-9", "lab")
    expect(page.locator("#lab-table")).to_have_attribute("data-recorded", "true",
                                                         timeout=60_000)
    expect(page.locator("#lab-meta")).to_have_text(re.compile(
        r"^exact · all 531,441 secrets · walked ahead of time \(genetic: "))
    walks = json.loads(resources.files("keypeg").joinpath("data/big_walks.json").read_text())
    rows = walks[find_rules("mm-6-9").key]
    best = min(rows, key=lambda name: rows[name]["total"])
    for name, row in rows.items():
        line = page.locator(f"#lab-table tr[data-strategy='{name}']")
        expect(line).to_have_attribute("data-total", str(row["total"]))
        expect(line).to_have_attribute("data-first-guess", row["first_guess"])
    expect(page.locator(f"#lab-table tr[data-strategy='{best}'] .tag")).to_have_text(
        "best strategy")
    expect(page.locator("#lab-table tr[data-strategy='genetic'] .tag")).to_have_text("sampled")
    open_page(page, "classic", "lab")
    expect(page.locator("#lab-table")).to_have_attribute("data-state", "ready")
    expect(page.locator("#lab-table .tag", has_text="best strategy")).to_have_count(1)


def test_a_shipped_optimal_tree_of_a_big_game_is_explored_from_the_lab(page: Page) -> None:
    """Codebreaker 4-6 (100,000 codes): no one-step tree is built in a web request, but the
    optimal row (from the tree keypeg ships, a new cell) opens that tree in the explorer;
    the explorer's secret box asks for a five-digit code."""
    from keypeg.solver.cells import stored_cells

    cell = next(c for c in stored_cells() if c["rules"] == "codebreaker-4")
    open_page(page, "codebreaker-4", "lab")
    expect(page.locator("#lab-table")).to_have_attribute("data-state", "ready", timeout=60_000)
    expect(page.locator("#lab-meta")).to_have_text(re.compile(
        r"^exact · all 100,000 secrets · computed ahead in [\d.,]+ s, shipped with keypeg$"))
    assert page.locator("#lab-table tr[data-strategy='entropy'] [data-explore]").count() == 0
    page.click("#lab-table tr[data-strategy='optimal'] [data-explore]")
    box = page.locator("#explorer")
    expect(box).to_have_attribute("data-state", "ready", timeout=60_000)
    head = page.locator("#explorer-node .node-head")
    expect(head).to_have_attribute("data-total", str(cell["total"]))
    expect(head).to_have_attribute("data-guess", cell["first_guess"])
    assert re.fullmatch(r"e\.g\. \d{5}", page.locator("#explorer-secret").get_attribute(
        "placeholder") or ""), page.locator("#explorer-secret").get_attribute("placeholder")


def test_the_explorer_offers_only_the_trees_the_server_shows(page: Page) -> None:
    """MM(6,9): no tree of any strategy can be shown (the optimum is neither shipped nor
    searchable in a request); the explorer had offered the optimum, selected, and answered
    it with the server's refusal in developer's words. Now it offers none and says why in
    a sentence; Codebreaker 4-6 offers its shipped optimum only; Mastermind every tree."""
    status, presets = api(page, "GET", "/api/rules")
    trees = {p["name"]: p["trees"] for p in presets}
    open_page(page, "mm-6-9", "lab")
    limits = page.locator("#explorer-limits")
    expect(limits).to_have_text(
        "Mastermind 6 × 9 has 531,441 codes, too many for a strategy's tree to be built "
        "here, and keypeg has no tree of its best possible play.")
    expect(page.locator("#explorer-toolbar")).to_be_hidden()
    expect(page.locator("#explorer-strategy option")).to_have_count(0)
    assert trees["mm-6-9"] == []
    page.select_option("#rules-select", "codebreaker-4")
    expect(limits).to_contain_text("only the best possible play's tree can be shown")
    options = page.locator("#explorer-strategy option")
    expect(options).to_have_count(1)
    assert [o.get_attribute("value") for o in options.all()] == trees["codebreaker-4"]
    page.select_option("#rules-select", "classic")
    expect(limits).to_be_hidden()
    expect(page.locator("#explorer-toolbar")).to_be_visible()
    expect(options).to_have_count(6)
    assert [o.get_attribute("value") for o in options.all()] == trees["classic"]
    expect(page.locator("#explorer-strategy")).to_have_value("optimal")


def test_lab_first_guess_table_is_seed_000s(page: Page) -> None:
    after = published()["optimal"]["classic"]["after_first_guess"]
    open_page(page, mode="lab")
    table = page.locator("#openings-table")
    expect(table).to_have_attribute("data-state", "ready")
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(len(after))
    for first, want in after.items():
        row = table.locator(f"tr[data-first-guess='{first}']")
        expect(row).to_have_attribute("data-optimal", str(want["total"]))
        expect(row.locator("td[data-strategy='optimal']")).to_have_text(f"{want['total']:,}")
    best = published()["optimal"]["classic"]["first_guess"]
    expect(table.locator(f"tr[data-first-guess='{best}'] td.best[data-strategy='optimal']")
           ).to_have_count(1)
    expect(page.locator("#openings-note")).to_be_hidden()


# ---------------------------------------------------------------------- other modes
def test_codebreaker_positional_feedback(page: Page) -> None:
    rules = find_rules("codebreaker-1")
    open_page(page)
    page.select_option("#rules-select", "codebreaker-1")
    rows = rules.max_guesses
    expect(page.locator("#attempts-left")).to_have_text(f"{rows} of {rows} attempts left")
    show_hints(page)
    history: list[tuple[str, str]] = []
    wait_hints(page, history, "codebreaker-1")
    game = page.locator("body").get_attribute("data-game")
    status, body = api(page, "GET", f"/api/games/{game}/hints")
    assert status == 200 and body["candidates"] == math.perm(10, 5)
    for row in body["strategies"]:  # an approximate badge on each sampled guess only
        badge = page.locator(f"#hint-strategies tr[data-strategy='{row['name']}'] .badge.approx")
        expect(badge).to_have_count(1 if row.get("sampled") else 0)
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
        if page.locator("#play-result").is_visible():
            break
        wait_hints(page, history)
        expected = GameState.from_clues(rules, [f"{a}={b}" for a, b in history]).count
        expect(page.locator("#hint-count")).to_have_attribute("data-count", str(expected))
        assert len(history) <= rows
    # Over: the secret is revealed; every row's cells are its feedback against the secret.
    secret = page.locator("#secret").get_attribute("data-code") or ""
    assert re.fullmatch(r"\d{5}", secret)
    for g, fb in history:
        assert str(score(Code.parse(secret, rules).symbols, Code.parse(g, rules).symbols,
                         rules)) == fb
    won = history[-1][1] == "GGGGG"
    expect(page.locator("#play-result")).to_have_attribute("data-result", "win" if won else "loss")


def test_the_approximate_badge_sits_on_the_sampled_guesses_only(page: Page) -> None:
    """MM(6,9)'s first hint: the strategies that score guesses chose among sampled codes,
    consistent and random did not, and the counts are exact. The badge had sat in the
    panel's head, over all of them; it is now on each sampled guess (and on the
    recommended one when it is one of them), nowhere else."""
    open_page(page, "mm-6-9")
    show_hints(page)
    wait_hints(page, [], "mm-6-9")
    game = page.locator("body").get_attribute("data-game")
    status, body = api(page, "GET", f"/api/games/{game}/hints")
    assert status == 200 and body["approximate"]
    sampled = {r["name"] for r in body["strategies"] if r.get("sampled")}
    exact = {r["name"] for r in body["strategies"]} - sampled
    assert sampled == {"maxsize", "expsize", "entropy", "parts"} and {"consistent",
                                                                        "random"} <= exact
    for name in sampled | exact:
        row = page.locator(f"#hint-strategies tr[data-strategy='{name}']")
        expect(row.locator(".strat-guess .badge.approx")).to_have_count(int(name in sampled))
    badges = page.locator("#hints .badge.approx")
    rec = body["recommended"]["name"]
    expect(badges).to_have_count(len(sampled) + int(rec in sampled))
    expect(page.locator("#hint-recommended .badge.approx")).to_have_count(int(rec in sampled))
    expect(page.locator(".hints-head .badge, .hint-stats .badge")).to_have_count(0)


def test_a_hint_out_of_time_searches_longer_on_request(page: Page, no_book: None,
                                                     short_hints: None) -> None:
    # 504 candidates: the optimal search takes 1-4 s, and the hint's is given far less
    # (`short_hints`: a fast machine had found it within a second); the book, which
    # answers it at once, is hidden (the server runs in this process)
    clues = [("0124", "0B1W"), ("3567", "0B2W")]
    open_page(page, "bulls-and-cows", "assist")
    for guess, answer in clues:
        add_clue(page, guess, int(answer[0]), int(answer[2]))
    wait_hints(page, clues, "bulls-and-cows")
    expect(page.locator("#hint-optimal-note")).to_contain_text("takes longer")
    # the best guess found in its time can be played at once
    found = page.locator("#use-best-found").get_attribute("data-use")
    assert found and f"The best guess found in that time is {found}" in page.locator(
        "#hint-optimal-note").inner_text()
    expect(page.locator("#use-best-found")).to_have_text(f"Use {found}")
    page.click("#hint-search-longer")
    longer = page.locator("#hint-longer")
    # a search of a few seconds shows that it runs, and for how long
    expect(page.locator("#hint-longer-text")).to_contain_text(
        re.compile(r"Looking for the best possible guess \(up to 60 s\)… \d+ s"))
    expect(longer).to_have_attribute("data-state", "found", timeout=60_000)
    state = GameState.from_clues(find_rules("bulls-and-cows"), [f"{g}={f}" for g, f in clues])
    best = state.space.text(solve_optimal(state.space, state=state).tree.first_guess)
    expect(page.locator("#hint-longer-text")).to_contain_text(
        f"The best possible guess is {best} (found and proven in")
    expect(page.locator("#use-longer")).to_have_text(f"Use {best}")
    # the proven guess is the recommendation now, and the table's optimal row (it went on
    # recommending the strongest strategy's guess beside it)
    expect(page.locator("#hint-recommended")).to_have_attribute("data-guess", best)
    expect(page.locator("#hint-recommended")).to_have_attribute("data-strategy", "optimal")
    expect(page.locator("#hint-optimal-note")).to_have_count(0)
    expect(page.locator("#hint-strategies tbody")).to_contain_text("optimal")
    page.click("#use-longer")
    expect(page.locator("#assist-guess")).to_have_value(best)


def test_a_best_guess_found_without_a_search_can_be_played(page: Page) -> None:
    # Where no search can run (MM(8,8)), the hint names the best guess found from the
    # candidates alone, with its bounds, and offers no longer search: played here on a
    # classic position whose answer is made into one such (the page reads only the JSON).
    def from_candidates(route: Route) -> None:
        res = route.fetch()
        body = res.json()
        if not body.get("solved"):
            guess = body["strategies"][-1]["guess"]
            body["optimal"], body["optimal_longer"] = None, False
            body["recommended"] = body["strategies"][0]
            body["best_found"] = {"guess": guess, "largest_part": 1, "possible": True,
                                  "total": 20, "lower": 18, "mean": 2.0, "lower_mean": 1.8}
            body["optimal_note"] = ("the best possible guess among 10 codes is out of reach "
                                    "in a game this size. The best guess found from the "
                                    f"candidates alone is {guess}: ...")
        route.fulfill(response=res, json=body)

    page.route(re.compile(r".*/api/hints$"), from_candidates)
    open_page(page, mode="assist")
    add_clue(page, "1122", 1, 1)
    wait_hints(page, [("1122", "1B1W")])
    found = page.locator("#use-best-found")
    expect(found).to_be_visible()
    guess = found.get_attribute("data-use") or ""
    expect(page.locator("#hint-optimal-note")).to_contain_text(
        f"from the candidates alone is {guess}")
    expect(page.locator("#hint-search-longer")).to_have_count(0)
    found.click()
    expect(page.locator("#assist-guess")).to_have_value(guess)


def test_assist_clues_and_contradiction(page: Page) -> None:
    rules = find_rules("classic")
    open_page(page, mode="assist")
    wait_hints(page, [])
    add_clue(page, "1122", 1, 1)
    wait_hints(page, [("1122", "1B1W")])
    add_clue(page, "3456", 1, 1)
    clues = [("1122", "1B1W"), ("3456", "1B1W")]
    wait_hints(page, clues)
    count = GameState.from_clues(rules, [f"{g}={f}" for g, f in clues]).count
    expect(page.locator("#hint-count")).to_have_attribute("data-count", str(count))
    expect(page.locator("#assist-error")).to_be_hidden()

    # An impossible answer cannot be chosen (three blacks leave no room for a white), and
    # the server refuses it too.
    page.select_option("#assist-black", "3")
    expect(page.locator("#assist-white option[value='1']")).to_be_disabled()
    status, body = api(page, "POST", "/api/hints",
                       {"rules": "classic", "history": [["1122", "3B1W"]]})
    assert status == 422 and "3B1W cannot happen" in body["detail"], body
    page.select_option("#assist-black", "0")
    expect(page.locator("#assist-clues li")).to_have_count(2)

    # A contradictory clue is kept, the error names the suspect clue, hints stop.
    add_clue(page, "1234", 0, 0)
    bad = [*clues, ("1234", "0B0W")]
    status, body = api(page, "POST", "/api/hints",
                       {"rules": "classic", "history": [list(c) for c in bad]})
    assert status == 422
    error = page.locator("#assist-error")
    expect(error).to_be_visible()
    assert body["suspects"] == [1, 3], body
    expect(page.locator("#assist-error-text")).to_have_text(
        "No code fits all of these clues: one of clues 1 and 3 (outlined below) is probably "
        "wrong, so check them against your board and edit or remove the wrong one.")
    expect(page.locator("#assist-clues li[data-index='2']")).to_have_class(re.compile("suspect"))
    expect(page.locator("#hints")).to_have_attribute("data-state", "error")
    expect(page.locator("#hints [data-use]")).to_have_count(0)

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


def test_assist_says_in_one_sentence_that_no_code_fits(page: Page) -> None:
    """Three clues that cannot all hold: the box says so in one plain sentence and what to
    do (it had shown the server's whole diagnosis, a paragraph ending "and so on"); each
    suspect says what it could have been. Where no single wrong clue explains it, the
    sentence says that instead."""
    open_page(page, mode="assist")
    for guess in ("1122", "1133", "2233"):
        add_clue(page, guess, 2, 0)
    clues = [("1122", "2B0W"), ("1133", "2B0W"), ("2233", "2B0W")]
    wait_hints(page, clues, state="error")
    text = page.locator("#assist-error-text")
    expect(text).to_have_text(
        "No code fits all of these clues: one of clues 1, 2 and 3 (outlined below) is "
        "probably wrong, so check them against your board and edit or remove the wrong one.")
    box = page.locator("#assist-error").inner_text()
    assert box.count(".") == 1 and "so on" not in box, box
    expect(page.locator("#assist-clues li.suspect")).to_have_count(3)
    expect(page.locator("#assist-clues li[data-index='0'] .tag.warn")).to_have_attribute(
        "title", "it could have been 0 blacks, 0 whites or 1 black, 1 white")
    expect(page.locator("#hint-error")).to_have_text(
        "No hints: no code fits all of these clues; edit or remove the wrong one.")
    for _ in clues:
        page.click("#assist-remove-0")
    wait_hints(page, [])
    for guess in ("1111", "2222", "3333"):
        add_clue(page, guess, 4, 0)
    wait_hints(page, [(g * 4, "4B0W") for g in "123"], state="error")
    expect(text).to_have_text(
        "No code fits all of these clues, and no single wrong clue explains it: check each "
        "clue against your board and edit or remove the wrong ones.")
    expect(page.locator("#assist-clues li.suspect")).to_have_count(0)


def test_api_errors_are_shown(page: Page) -> None:
    open_page(page, "mini")  # no row limit: the game ends only when solved
    game = page.locator("body").get_attribute("data-game")
    # The game ends behind the page's back (another tab solves it): the next guess from the
    # page gets the server's refusal, shown in the message area.
    status, body = api(page, "GET", f"/api/games/{game}")
    assert status == 200 and not body["over"]
    state = GameState.start(find_rules("mini"))
    played = []
    while True:  # the first code still possible, each time
        guess = state.candidate_texts()[0]
        status, res = api(page, "POST", f"/api/games/{game}/guesses", {"guess": guess})
        assert status == 200
        played.append((guess, res["feedback"]))
        if res["over"]:
            break
        state = state.after(guess, res["feedback"])
    status, refused = api(page, "POST", f"/api/games/{game}/guesses", {"guess": "1234"})
    assert status == 409
    page.locator("#guess-input").focus()
    page.keyboard.type("1234")
    page.keyboard.press("Enter")
    expect(page.locator("#message")).to_have_attribute("data-kind", "error")
    expect(page.locator("#message-text")).to_contain_text(refused["detail"])
    # the page then shows the game as the server has it: the rows played elsewhere, won
    expect(page.locator("#board .row[data-feedback]")).to_have_count(len(played))
    assert board_history(page) == played
    expect(page.locator("#play-result")).to_have_attribute("data-result", "win")
    page.click("#message-close")
    expect(page.locator("#message")).to_be_hidden()


# ---------------------------------------------------------------------- the page itself
def test_the_page_is_es_modules_without_a_build(page: Page) -> None:
    loaded: list[tuple[str, str]] = []
    page.on("response", lambda r: loaded.append((r.url, r.headers.get("content-type", "")))
            if r.url.endswith(".js") else None)
    open_page(page)
    assert page.locator("script[type=module]").count() == 1
    modules = sorted(p.name for p in STATIC.glob("*.js"))
    got = sorted(url.rsplit("/", 1)[1] for url, _ in loaded)
    assert got == modules, got
    assert all("javascript" in kind for _, kind in loaded), loaded
    for path in STATIC.glob("*.js"):
        lines = len(path.read_text().splitlines())
        assert lines < 300, f"{path.name} has {lines} lines"
    # the notation comes from /api/rules: no colour letters or names in the scripts
    for path in STATIC.glob("*.js"):
        text = path.read_text()
        assert '"RGBYOPWKC"' not in text and '"purple"' not in text, path.name


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_screenshot_mid_game(pages: Pages, tmp_path: Path) -> None:
    page = pages.open(1280, 900)
    open_page(page)
    show_hints(page)
    for _ in range(3):  # a new game if the random secret is one of the two guesses
        history: list[tuple[str, str]] = []
        for guess in ("1122", "3456"):
            wait_hints(page, history)
            history.append(play_guess(page, guess))
            if page.locator("#play-result").is_visible():
                break
        if not page.locator("#play-result").is_visible():
            break
        page.click("#new-game")  # (a reload would resume the finished game)
    wait_hints(page, history)
    write_recommended(page)
    shot = tmp_path / "screenshot.png"
    page.screenshot(path=str(shot))
    data = shot.read_bytes()
    assert _png_size(data) == (1280, 900)
    assert len(data) > 20_000  # a page with content, not a blank image


# ---------------------------------------------------------------------- tolerating mistakes
SECRET = "1234"
#: Classic clues for the secret 1234; clue 2's answer is wrong (the truth is 0B2W).
NOISY_CLUES = [("1122", "1B1W"), ("3456", "0B0W"), ("2354", "1B2W"), ("1345", "1B2W")]
WRONG = 2  # its number
NOISE = "symmetric:0.05"  # what the switch sends, as its help text says


def true_answer(guess: str) -> str:
    rules = find_rules("classic")
    return str(score(Code.parse(SECRET, rules).symbols, Code.parse(guess, rules).symbols, rules))


def add_clues(page: Page, clues: list[tuple[str, str]]) -> None:
    for guess, feedback in clues:
        black, white = (int(x) for x in re.findall(r"\d+", feedback))
        add_clue(page, guess, black, white)


def wait_noisy_hints(page: Page, history: list[tuple[str, str]]) -> None:
    expect(page.locator("#hints")).to_have_attribute("data-noise", NOISE)
    wait_hints(page, history)


def test_assist_names_clues_equally_doubtful_together(page: Page) -> None:
    """Three clues that cannot all hold, each as likely wrong as the others: the page had
    named the first alone ("Clue 1 ... may be wrong: 35%")."""
    clues = [("1122", "0B0W"), ("3344", "0B0W"), ("5566", "0B0W")]
    state = GameState.from_clues(find_rules("classic"), [f"{g}={f}" for g, f in clues],
                                 noise=NOISE)
    doubts = state.doubts()
    assert max(doubts) - min(doubts) < 1e-9 and 0.2 <= doubts[0] < 0.5, doubts
    open_page(page, mode="assist")
    page.locator("#assist-tolerate").check()
    add_clues(page, clues)
    wait_noisy_hints(page, clues)
    expect(page.locator("#assist-suspect")).to_contain_text(
        f"Clues 1, 2 and 3 may each be wrong: {round(100 * doubts[0])}% each.")


def test_assist_white_menu_offers_only_answers_the_rules_allow(page: Page) -> None:
    """Beside each black count the white menu greys out the counts no code can get (the
    answers of the rules' space), and a black count chosen lowers a white count it rules
    out: the menu had offered 3B1W, refused only on submit."""
    space = get_space(find_rules("classic"))
    answers = {(f.black, f.white) for f in map(space.feedback, range(space.n_responses))}
    open_page(page, mode="assist")
    for black in range(5):
        page.select_option("#assist-black", str(black))
        for white in range(5):
            option = expect(page.locator(f"#assist-white option[value='{white}']"))
            if (black, white) in answers:
                option.to_be_enabled()
            else:
                option.to_be_disabled()
    page.select_option("#assist-black", "0")
    page.select_option("#assist-white", "3")
    page.select_option("#assist-black", "2")
    expect(page.locator("#assist-white")).to_have_value("2")
    page.select_option("#assist-black", "3")
    expect(page.locator("#assist-white")).to_have_value("0")


def test_assist_tolerates_a_wrong_clue_and_finishes_the_game(pages: Pages) -> None:
    """With "Tolerate mistakes" on, a wrong clue among true ones does not block Assist: the
    page names it (the library's likeliest wrong clue), shows each clue's doubt and the
    likeliest secrets as the library computes them, and its recommended guesses, entered
    with their true answers, find the secret. On a phone, with nothing wider than it."""
    assert [c for c in NOISY_CLUES if true_answer(c[0]) != c[1]] == [NOISY_CLUES[WRONG - 1]]
    rules = find_rules("classic")
    page = pages.open(360, 740)
    open_page(page, mode="assist")
    switch = page.locator("#assist-tolerate")
    expect(switch).not_to_be_checked()
    expect(page.locator("#assist-tolerate-help")).to_contain_text(NOISE)
    switch.check()
    history = list(NOISY_CLUES)
    add_clues(page, history)
    wait_noisy_hints(page, history)
    expect(page.locator("#assist-error")).to_be_hidden()
    state = GameState.from_clues(rules, [f"{g}={f}" for g, f in history], noise=NOISE)
    doubts = state.doubts()
    worst = max(range(len(doubts)), key=doubts.__getitem__)
    assert worst == WRONG - 1 and doubts[worst] > 0.9
    suspect = page.locator("#assist-suspect")
    expect(suspect).to_have_attribute("data-clue", str(WRONG))
    guess, feedback = NOISY_CLUES[WRONG - 1]
    expect(suspect).to_contain_text(f"Clue {WRONG} ({guess} → {feedback}) is probably wrong: ")
    for i, d in enumerate(doubts):
        shown = float(page.locator(f"#assist-clues li[data-index='{i}'] .doubt")
                      .get_attribute("data-doubt") or "nan")
        assert shown == pytest.approx(d, abs=1e-5), (i, shown, d)
    expect(page.locator(f"#assist-clues li[data-index='{WRONG - 1}']")).to_have_class(
        re.compile("doubted"))
    want = hint(state)
    assert want.likely is not None
    likely = page.locator("#hint-likely li")
    expect(likely).to_have_count(6)
    for row, (code, p) in zip(likely.all(), want.likely, strict=False):
        assert row.get_attribute("data-code") == code
        assert float(row.get_attribute("data-probability") or "nan") == pytest.approx(p, abs=1e-5)
    page.click("#use-recommended")
    expect(page.locator("#cut-bars")).to_have_attribute("data-state", "ready")
    assert_fits(page, "assist, tolerating mistakes")
    low = [m for m in page.evaluate(CONTRAST_JS, "#assist-suspect, .doubt, #hint-likely, "
                                    ".switch, #hint-recommended") if m["ratio"] < 4.5]
    assert not low, f"text below 4.5:1: {low[:6]}"

    # Play on: the recommended guess (information gain, as the library says), its true
    # answer, until the page says solved.
    rec = page.locator("#hint-recommended")
    for _ in range(8):
        if page.locator("#hint-recommended .solved-note").count():
            break
        want = hint(state)
        assert want.recommended is not None and want.recommended.name == "information"
        expect(rec).to_have_attribute("data-guess", want.recommended.guess)
        expect(rec).to_have_attribute("data-strategy", "information")
        page.click("#use-recommended")
        guess = page.locator("#assist-guess").input_value()
        assert guess == want.recommended.guess
        history.append((guess, true_answer(guess)))
        add_clues(page, history[-1:])
        wait_noisy_hints(page, history)
        state = state.after(guess, history[-1][1])
    solved = page.locator("#hint-recommended .solved-note")
    expect(solved).to_have_text("Solved: the code is found.")
    assert history[-1] == (SECRET, "4B0W") and state.solved
    expect(suspect).to_have_attribute("data-clue", str(WRONG))  # still the wrong one
    assert_fits(page, "assist, solved while tolerating mistakes")


def test_tolerate_mistakes_off_is_today_and_the_choice_survives_a_reload(page: Page) -> None:
    """The switch off: the same clues are a contradiction, diagnosed as before (the
    server's sentence, the suspect outlined, no hints, no doubts). On: the same clues get
    hints and the wrong clue is named. The choice is kept over a reload, both ways."""
    open_page(page, mode="assist")
    switch = page.locator("#assist-tolerate")
    expect(switch).not_to_be_checked()
    add_clues(page, NOISY_CLUES)
    wait_hints(page, NOISY_CLUES, state="error")
    expect(page.locator("#hints")).to_have_attribute("data-noise", "exact")
    status, body = api(page, "POST", "/api/hints",
                       {"rules": "classic", "history": [list(c) for c in NOISY_CLUES]})
    assert status == 422 and body["suspects"] == [WRONG]
    expect(page.locator("#assist-error")).to_be_visible()
    expect(page.locator("#assist-error-text")).to_have_text(
        f"No code fits all of these clues: clue {WRONG} is probably wrong, so check it "
        "against your board and edit or remove it.")
    expect(page.locator(f"#assist-clues li[data-index='{WRONG - 1}']")).to_have_class(
        re.compile("suspect"))
    expect(page.locator("#assist-suspect")).to_be_hidden()
    expect(page.locator("#assist-clues .doubt")).to_have_count(0)
    expect(page.locator("#hints [data-use]")).to_have_count(0)

    switch.check()  # the same clues, now weighed
    wait_noisy_hints(page, NOISY_CLUES)
    expect(page.locator("#assist-error")).to_be_hidden()
    expect(page.locator("#assist-suspect")).to_have_attribute("data-clue", str(WRONG))
    expect(page.locator("#assist-clues .doubt")).to_have_count(len(NOISY_CLUES))

    page.reload()  # the choice is remembered (and the clues are kept)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(switch).to_be_checked()
    wait_noisy_hints(page, NOISY_CLUES)
    expect(page.locator("#assist-suspect")).to_have_attribute("data-clue", str(WRONG))
    asked: list[str] = []  # Clear asks first: every clue copied from a board would go
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("#assist-clear")
    expect(page.locator("#assist-clues")).to_have_attribute("data-count",
                                                             str(len(NOISY_CLUES)))
    assert asked == [f"Clear all {len(NOISY_CLUES)} clues? They cannot be brought back."]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#assist-clear")
    wait_noisy_hints(page, [])
    add_clues(page, NOISY_CLUES[:2])
    wait_noisy_hints(page, NOISY_CLUES[:2])
    expect(page.locator("#assist-suspect")).to_have_attribute("data-clue", str(WRONG))

    switch.uncheck()  # back to today: the contradiction is diagnosed again
    wait_hints(page, NOISY_CLUES[:2], state="error")
    expect(page.locator("#hints")).to_have_attribute("data-noise", "exact")
    expect(page.locator("#assist-error")).to_be_visible()
    expect(page.locator("#assist-suspect")).to_be_hidden()
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(switch).not_to_be_checked()


# ---------------------------------------------------------------------- match
MINI = find_rules("mini")  # the smallest preset (256 codes, 10 rows): matches play fast


def match_idle(page: Page) -> None:
    """Wait until the Match panel has its answer (no move in flight, no lookup)."""
    panel = page.locator("#panel-match")
    expect(panel).to_have_attribute("data-busy", "false")
    expect(panel).not_to_have_attribute("data-state", "loading")


def match_guess(page: Page) -> str:
    """Type the first code that fits the board's answers as the Match guess, play it."""
    history = [f"{g}={f}" for g, f in board_history(page, "#match-board")]
    guess = GameState.from_clues(MINI, history).candidate_texts()[0]
    page.locator("#match-guess-input").focus()
    page.keyboard.type(guess)
    expect(page.locator("#match-guess-input")).to_have_value(guess)
    page.keyboard.press("Enter")
    match_idle(page)
    return guess


def start_match(page: Page, people: bool = False) -> str:
    """Start a 2-game match under the selected rules; return its id."""
    page.select_option("#match-games", "2")
    page.check(f"input[name=match-players][value={'people' if people else 'computer'}]")
    page.click("#match-start-button")
    panel = page.locator("#panel-match")
    expect(panel).to_have_attribute("data-match", re.compile(".{20,}"))
    match_idle(page)
    return panel.get_attribute("data-match") or ""


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def test_a_match_against_the_computer_to_the_final_score(pages: Pages) -> None:
    """Mini, 2 games: we break keypeg's code, keypeg breaks ours; the page's final score,
    score table and outcome sentences are the API's. The start screen shows the game value
    of the rules as /api/value gives it."""
    page = pages.open()
    open_page(page, "mini", "match")
    panel = page.locator("#panel-match")
    expect(panel).to_have_attribute("data-state", "start")
    status, value = api(page, "GET", "/api/value?rules=mini")
    assert status == 200
    box = page.locator("#match-value")
    expect(box).to_have_attribute("data-state", "ready")
    expect(box).to_have_attribute("data-value", value["value"])
    expect(page.locator("#match-value-summary")).to_contain_text(f"{value['mean']:.4f}")
    expect(page.locator("#match-value-maker tbody tr")).to_have_count(len(value["codemaker"]))
    for c in value["codemaker"]:
        row = page.locator(f"#match-value-maker tr[data-class='{c['class']}']")
        expect(row).to_have_attribute("data-probability", c["probability"])
        if c["probability"] == "0/1":  # (shown "0/1 (0.0%)")
            expect(row.locator("td").nth(2)).to_have_text("never")
    assert any(c["probability"] == "0/1" for c in value["codemaker"])  # mini's AAAA
    firsts = [t["first_guess"] for t in value["codebreaker"]]
    rows = page.locator("#match-value-breaker tbody tr")
    expect(rows).to_have_count(len(firsts))
    assert [r.get_attribute("data-first-guess") for r in rows.all()] == firsts
    # the ways of playing share their first guess (1123): each row shows what it needs on
    # each kind of code, which tells them apart
    assert len(set(firsts)) < len(firsts)
    for row, way in zip(rows.all(), value["codebreaker"], strict=True):
        for kind, cost in way["costs"].items():
            p, q = map(int, cost.split("/"))
            expect(row.locator(f".value-cost[data-class='{kind}']")).to_have_text(
                f"{kind} {p / q:.3f}")

    match_id = start_match(page)
    expect(panel).to_have_attribute("data-state", "play")
    expect(page.locator("#match-turn")).to_contain_text("you break keypeg's code")
    ours = []
    for _ in range(MINI.max_guesses or 10):
        if panel.get_attribute("data-phase") != "guess":
            break
        ours.append(match_guess(page))
    expect(panel).to_have_attribute("data-phase", "secret")
    expect(page.locator("#match-events")).to_contain_text("Game 1: you broke the code in")
    page.locator("#match-secret-input").focus()
    page.keyboard.type("3142")
    expect(page.locator("#match-secret-input")).to_have_attribute("type", "password")
    # keypeg plays its whole game in the request (seconds on MM(8,8)): the turn line counts
    # them (held here until it has)
    held: list = []
    page.route(re.compile(r".*/secret$"), lambda route: held.append(route))
    page.click("#match-submit-secret")
    expect(page.locator("#match-turn")).to_have_text(re.compile(r"Keypeg is playing… [2-9] s$"),
                                                     timeout=10_000)
    held[0].continue_()
    expect(panel).to_have_attribute("data-state", "over")

    status, view = api(page, "GET", f"/api/matches/{match_id}")
    assert status == 200 and view["over"] and view["games"] == 2
    assert [g for g, _ in view["played"][0]["history"]] == ours
    final = page.locator("#match-final")
    expect(final).to_have_text(sentence_case(view["result"]))
    expect(final).to_have_attribute("data-a", str(view["scores"]["A"]))
    expect(final).to_have_attribute("data-b", str(view["scores"]["B"]))
    assert view["scores"] == {"A": len(view["played"][1]["history"]),
                              "B": len(view["played"][0]["history"])}
    total = page.locator("#match-scores tfoot tr")
    expect(total).to_have_attribute("data-a", str(view["scores"]["A"]))
    expect(total).to_have_attribute("data-b", str(view["scores"]["B"]))
    for g in view["played"]:
        row = page.locator(f"#match-scores tbody tr[data-game='{g['number']}']")
        expect(row).to_have_attribute("data-a", str(g["points"]["A"]))
        expect(row).to_have_attribute("data-b", str(g["points"]["B"]))
        expect(page.locator(f"#match-outcomes li[data-game='{g['number']}']")).to_have_text(
            sentence_case(g["outcome"]))
    # the board shows keypeg's guesses at our secret
    assert board_history(page, "#match-board") == [tuple(h) for h in view["played"][1]["history"]]
    assert view["played"][1]["secret"] == "3142"
    page.set_viewport_size({"width": 360, "height": 740})
    assert_fits(page, "match over, on a phone")


def test_a_reload_mid_match_resumes_it(page: Page) -> None:
    """The match id is kept in localStorage: a reload shows the same match at the same
    move and plays on; under other rules the page offers to resume it."""
    open_page(page, "mini", "match")
    match_id = start_match(page)
    match_guess(page)
    before = board_history(page, "#match-board")
    assert len(before) == 1
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    panel = page.locator("#panel-match")
    expect(panel).to_have_attribute("data-match", match_id)
    match_idle(page)
    if panel.get_attribute("data-phase") != "guess":  # the first guess was the secret
        expect(panel).to_have_attribute("data-phase", "secret")
        return
    assert board_history(page, "#match-board") == before
    match_guess(page)
    status, view = api(page, "GET", f"/api/matches/{match_id}")
    assert status == 200 and len(view["played"][0]["history"]) == 2
    assert [tuple(h) for h in view["played"][0]["history"]][:1] == before
    # under other rules the match is offered, and resuming switches the rules back
    open_page(page, "classic", "match")
    expect(page.locator("#match-resume")).to_be_visible()
    expect(panel).to_have_attribute("data-state", "start")
    page.click("#match-resume-button")
    expect(page.locator("#rules-select")).to_have_value("mini")
    expect(panel).to_have_attribute("data-match", match_id)
    expect(panel).to_have_attribute("data-state", "play")
    played = [tuple(h) for h in view["played"][0]["history"]]
    if view["played"][0]["outcome"] is not None:  # the second guess was the secret:
        expect(panel).to_have_attribute("data-phase", "secret")  # game 2 waits for one
        assert board_history(page, "#match-board") == []
    else:
        assert board_history(page, "#match-board") == played


def test_a_half_typed_match_guess_is_kept(page: Page) -> None:
    """The guess being written in a match had been lost when the page drew the match
    again (a reload, other rules and back); it is kept with the move it is for, and a
    guess played leaves the box empty for the next move."""
    open_page(page, "mini", "match")
    start_match(page)
    panel = page.locator("#panel-match")
    expect(panel).to_have_attribute("data-phase", "guess")
    box = page.locator("#match-guess-input")
    box.focus()
    page.keyboard.type("12")
    expect(box).to_have_value("12")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    match_idle(page)
    expect(panel).to_have_attribute("data-phase", "guess")
    expect(box).to_have_value("12")
    expect(page.locator("#match-guess-slots .cell .peg")).to_have_count(2)
    page.select_option("#rules-select", "classic")
    expect(panel).to_have_attribute("data-state", "start")
    page.select_option("#rules-select", "mini")
    expect(panel).to_have_attribute("data-state", "play")
    expect(box).to_have_value("12")
    box.focus()
    page.keyboard.type("34")
    expect(box).to_have_value("1234")
    page.keyboard.press("Enter")
    match_idle(page)
    if panel.get_attribute("data-phase") == "guess":  # (1234 was not the secret)
        expect(box).to_have_value("")
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        match_idle(page)
        expect(box).to_have_value("")


def test_a_game_value_out_of_reach_is_said_in_a_players_words(page: Page) -> None:
    """MM(8,8)'s game value box said '... 256 TiB, over the 2.0 GiB budget
    (KEYPEG_TABLE_BUDGET) ...' (web review)."""
    open_page(page, "mm-8-8", "match")
    box = page.locator("#match-value")
    expect(box).to_have_attribute("data-state", "out-of-reach", timeout=30_000)
    text = page.locator("#match-value-summary").inner_text()
    assert "out of reach" in text and "KEYPEG" not in text and "iB" not in text, text


def test_two_people_hide_the_secret_and_hand_answers_are_checked(page: Page) -> None:
    """Two people on one screen: a hand-over screen before the secret and after it, the
    secret nowhere on the page, a contradictory hand answer refused with the answer it
    conflicts with outlined, and a wrong one found out as a forfeit when the game ends."""
    open_page(page, "mini", "match")
    page.check("input[name=match-players][value=people]")
    page.fill("#match-name-a", "Ada")
    page.fill("#match-name-b", "Bob")
    match_id = start_match(page, people=True)
    panel = page.locator("#panel-match")
    expect(panel).to_have_attribute("data-state", "handover")
    expect(page.locator("#match-handover-text")).to_contain_text("Ada, look away")
    page.click("#match-handover-ok")
    expect(panel).to_have_attribute("data-phase", "secret")
    page.locator("#match-secret-input").focus()
    page.keyboard.type("4321")
    # a random secret is kept hidden: it cannot be answered by hand
    expect(page.locator("#match-secret-random")).to_be_enabled()
    page.check("input[name=match-answering][value=hand]")
    expect(page.locator("#match-secret-random")).to_be_disabled()
    page.check("input[name=match-answering][value=auto]")
    expect(page.locator("#match-secret-random")).to_be_enabled()
    page.check("input[name=match-answering][value=hand]")
    page.click("#match-submit-secret")
    expect(panel).to_have_attribute("data-state", "handover")
    expect(page.locator("#match-board")).to_be_hidden()
    page.click("#match-handover-ok")
    expect(panel).to_have_attribute("data-state", "play")
    expect(page.locator("#match-secret-input")).to_have_value("")
    assert "4321" not in page_text(page)
    for guess, black, white, refused in (("1122", 0, 0, False), ("3344", 0, 0, True)):
        page.locator("#match-guess-input").focus()
        page.keyboard.type(guess)
        page.keyboard.press("Enter")
        match_idle(page)
        expect(panel).to_have_attribute("data-phase", "answer")
        expect(page.locator("#match-pending")).to_have_attribute("data-code", guess)
        page.select_option("#match-black", str(black))
        page.select_option("#match-white", str(white))
        page.click("#match-submit-answer")
        match_idle(page)
        if not refused:
            expect(panel).to_have_attribute("data-phase", "guess")
    # 3344 = 0B0W with 1122 = 0B0W: no code fits both; the page says so, nothing recorded
    note = page.locator("#match-answer-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Answer 2 (3344=0B0W) is refused")
    expect(page.locator("#match-board .row[data-index='0']")).to_have_class(
        re.compile("conflict"))
    status, view = api(page, "GET", f"/api/matches/{match_id}")
    assert view["played"][0]["history"] == [["1122", "0B0W"]] and view["phase"] == "answer"
    # three blacks leave no room for a white: the white menu says so (the match's menus)
    page.select_option("#match-black", "3")
    expect(page.locator("#match-white option[value='1']")).to_be_disabled()
    expect(page.locator("#match-white option[value='0']")).to_be_enabled()
    page.select_option("#match-black", "2")  # fits 1122 = 0B0W (3333), not the secret
    page.click("#match-submit-answer")
    match_idle(page)
    expect(panel).to_have_attribute("data-phase", "guess")
    expect(note).to_be_hidden()
    page.once("dialog", lambda dialog: dialog.accept())  # "Give up this game? ..."
    page.click("#match-give-up")
    match_idle(page)
    expect(page.locator("#match-events")).to_contain_text("game 1 is a forfeit")
    expect(panel).to_have_attribute("data-phase", "secret")  # Ada makes game 2's code
    expect(panel).to_have_attribute("data-state", "handover")
    expect(page.locator("#match-handover-text")).to_contain_text("Bob, look away")
    page.click("#match-handover-ok")
    expect(panel).to_have_attribute("data-state", "play")
    expect(page.locator("#match-outcomes li[data-game='1']")).to_contain_text("the secret 4321")
    status, view = api(page, "GET", f"/api/matches/{match_id}")
    assert view["played"][0]["forfeit"]["answer"] == 1
    assert view["scores"] == {"A": view["max_points"], "B": 0}
    expect(page.locator("#match-scores tfoot tr")).to_have_attribute(
        "data-a", str(view["max_points"]))


@pytest.mark.parametrize("path,title", [("/docs", ".swagger-ui .info .title"),
                                        ("/redoc", "h1")])
def test_the_api_docs_render_offline(page: Page, path: str, title: str) -> None:
    """FastAPI's /docs and /redoc load Swagger UI and ReDoc from a CDN: a blank page without
    a network. Here every request off this server is refused; both must still render the
    API (its title and the hints endpoint), from files keypeg serves itself, and ask
    nothing of another server (ReDoc's sidebar logo came from cdn.redoc.ly)."""
    refused: list[str] = []

    def local_only(route: Route) -> None:
        if route.request.url.startswith(page.base_url):  # type: ignore[attr-defined]
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", local_only)
    page.goto(f"{page.base_url}{path}")  # type: ignore[attr-defined]
    expect(page.locator(title).first).to_contain_text("keypeg")
    expect(page.get_by_text("/api/hints").first).to_be_visible()
    assert not refused, refused


def test_watch_brings_its_approximate_note_up_to_date(page: Page) -> None:
    """On MM(6,9) Play's note kept saying "(531,441 are now)" after guesses 2 and 3 (web
    review): a later approximate step brings its count up to date while it is shown."""
    open_page(page, "mm-6-9", "watch")
    page.select_option("#watch-strategy", "optimal")
    page.fill("#watch-secret", "918273")
    record_messages(page)
    page.click("#watch-play")
    expect(page.locator("#watch-status")).to_have_attribute("data-state", "solved",
                                                            timeout=120_000)
    rows = board_history(page, "#watch-board")
    state = GameState.start(find_rules("mm-6-9"))
    counts = []
    for guess, feedback in rows[:-1]:
        state = state.after(guess, feedback)
        counts.append(state.count)
    shown = page.evaluate("window.shown")
    assert any("531,441 are now" in text for text in shown), shown
    # every count still out of the optimum's reach was shown in its turn (there is one)
    assert any(c > 600 for c in counts), counts
    for n in (c for c in counts if c > 600):
        assert any(f"{n:,} are now" in text for text in shown), (n, shown)


def test_a_server_out_of_reach_says_what_to_do(page: Page) -> None:
    """'Guess 3456 not played: could not reach the keypeg server (Failed to fetch)' said
    nothing of what to do (web review); the guess stays written to play again."""
    open_page(page)
    page.route(re.compile(r".*/api/games/[^/]+/guesses$"), lambda route: route.abort())
    page.locator("#guess-input").focus()
    page.keyboard.type("3456")
    page.keyboard.press("Enter")
    expect(page.locator("#message-text")).to_contain_text(
        "check that keypeg serve is still running, then try again")
    expect(page.locator("#guess-input")).to_have_value("3456")


# ---------------------------------------------------------------------- kept over a reload
def seeded_games(page: Page, seed: int, rules: str = "classic") -> str:
    """Make the page's new games draw their secret from `seed`; return that secret (a
    game of the same seed, given up through the API, shows it)."""
    def add_seed(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "seed": seed}))

    page.route("**/api/games", add_seed)
    status, game = api(page, "POST", "/api/games", {"rules": rules, "seed": seed})
    assert status == 200
    status, over = api(page, "POST", f"/api/games/{game['id']}/give-up")
    assert status == 200
    return over["secret"]


def test_a_reload_mid_game_resumes_it_but_not_a_finished_one(page: Page) -> None:
    """The id of the game in play is kept in localStorage: a reload shows the same game
    (its rows, the attempts left, the same id on the server) and plays on; once the game
    is over, a reload starts a fresh one."""
    secret = seeded_games(page, 7)
    open_page(page)
    game_id = page.locator("body").get_attribute("data-game")
    guesses = [g for g in ("1122", "3456", "6543") if g != secret][:2]
    played = [play_guess(page, g) for g in guesses]
    expect(page.locator("#attempts-left")).to_have_attribute("data-left", "8")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("body")).to_have_attribute("data-game", game_id or "")
    expect(page.locator("#board .row[data-feedback]")).to_have_count(2)
    assert board_history(page) == played
    expect(page.locator("#attempts-left")).to_have_attribute("data-left", "8")
    expect(page.locator("#attempts-left")).to_have_text("8 of 10 attempts left")
    expect(page.locator("#panel-play")).to_have_attribute("data-state", "playing")
    play_guess(page, secret)  # the game goes on, on the server too
    expect(page.locator("#panel-play")).to_have_attribute("data-state", "won")
    status, view = api(page, "GET", f"/api/games/{game_id}")
    assert status == 200 and [tuple(h) for h in view["history"]][:2] == played
    assert view["over"] and len(view["history"]) == 3
    page.reload()  # a finished game is not resumed: a fresh one starts
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("body")).not_to_have_attribute("data-game", game_id or "")
    expect(page.locator("#panel-play")).to_have_attribute("data-state", "playing")
    expect(page.locator("#board .row[data-feedback]")).to_have_count(0)
    expect(page.locator("#attempts-left")).to_have_attribute("data-left", "10")


def assist_clues(page: Page) -> list[tuple[str, str]]:
    return [(li.get_attribute("data-guess") or "", li.get_attribute("data-feedback") or "")
            for li in page.locator("#assist-clues li").all()]


def test_assist_clues_survive_a_reload_and_are_kept_per_rules(page: Page) -> None:
    """The clues are kept in localStorage for their rules preset: a reload shows the same
    clues and the same count of possible codes; other rules have clues of their own, and
    coming back to the first rules brings theirs back. Clear clues forgets them."""
    clues = [("1122", "1B1W"), ("3456", "1B1W"), ("1345", "0B2W")]
    expected = GameState.from_clues(find_rules("classic"), [f"{g}={f}" for g, f in clues]).count
    open_page(page, mode="assist")
    add_clues(page, clues)
    wait_hints(page, clues, "classic")
    expect(page.locator("#hint-count")).to_have_attribute("data-count", str(expected))
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    wait_hints(page, clues, "classic")
    expect(page.locator("#assist-clues")).to_have_attribute("data-count", str(len(clues)))
    assert assist_clues(page) == clues
    expect(page.locator("#hint-count")).to_have_attribute("data-count", str(expected))
    expect(page.locator("#assist-clues-title")).to_contain_text("3 clues so far")

    page.select_option("#rules-select", "mini")  # other rules: their own (no) clues
    wait_hints(page, [], "mini")
    expect(page.locator("#assist-clues")).to_have_attribute("data-count", "0")
    expect(page.locator("#message-text")).to_have_text(
        "Your Mastermind assist clues are kept: choose Mastermind again to go on.")
    add_clue(page, "1122", 0, 1)
    wait_hints(page, [("1122", "0B1W")], "mini")
    page.select_option("#rules-select", "classic")
    wait_hints(page, clues, "classic")
    assert assist_clues(page) == clues
    page.select_option("#rules-select", "mini")
    wait_hints(page, [("1122", "0B1W")], "mini")

    page.once("dialog", lambda dialog: dialog.accept())  # "Clear the clue? ..."
    page.click("#assist-clear")  # forgotten, over a reload too
    wait_hints(page, [], "mini")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    wait_hints(page, [], "mini")
    expect(page.locator("#assist-clues")).to_have_attribute("data-count", "0")


def test_other_rules_mid_game_keep_the_game_for_its_rules(page: Page) -> None:
    """Choosing other rules in the middle of a game no longer throws it away silently: the
    page says the game is kept, and choosing its rules again brings it back, rows and all
    (each rules has its own game). A finished game is not announced."""
    secret = seeded_games(page, 7)
    mini = seeded_games(page, 7, "mini")
    open_page(page)
    game_id = page.locator("body").get_attribute("data-game")
    first = play_guess(page, "1122" if secret != "1122" else "3456")
    page.select_option("#rules-select", "mini")
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator("#message")).to_have_attribute("data-kind", "info")
    expect(page.locator("#message-text")).to_have_text(
        "Your Mastermind game is kept: choose Mastermind again to go on.")
    expect(page.locator("body")).not_to_have_attribute("data-game", game_id or "")
    expect(page.locator("#board .row[data-feedback]")).to_have_count(0)
    mini_id = page.locator("body").get_attribute("data-game")
    mini_first = play_guess(page, "1234" if mini != "1234" else "4321")
    page.select_option("#rules-select", "classic")
    expect(page.locator("#message-text")).to_have_text(
        "Your Mini Mastermind game is kept: choose Mini Mastermind again to go on.")
    expect(page.locator("body")).to_have_attribute("data-game", game_id or "")
    expect(page.locator("#board .row[data-feedback]")).to_have_count(1)
    assert board_history(page) == [first]
    expect(page.locator("#attempts-left")).to_have_attribute("data-left", "9")
    page.once("dialog", lambda dialog: dialog.accept())  # "Give up this game? ..."
    page.click("#give-up")  # over: nothing is kept, nothing said
    expect(page.locator("#panel-play")).to_have_attribute("data-state", "gave-up")
    page.select_option("#rules-select", "mini")
    expect(page.locator("body")).to_have_attribute("data-game", mini_id or "")
    assert board_history(page) == [mini_first]
    expect(page.locator("#message")).to_be_hidden()
    page.select_option("#rules-select", "classic")  # the given-up game is not resumed
    expect(page.locator("body")).not_to_have_attribute("data-game", game_id or "")
    expect(page.locator("#board .row[data-feedback]")).to_have_count(0)
    expect(page.locator("#panel-play")).to_have_attribute("data-state", "playing")


# ---------------------------------------------------------------------- big games on a phone
ROW_LAYOUT_JS = """(row) => {
  const box = (e) => e.getBoundingClientRect();
  const board = box(row.closest(".board"));
  const inside = (r) => r.left >= board.left - 0.5 && r.right <= board.right + 0.5
    && r.top >= board.top - 0.5 && r.bottom <= board.bottom + 0.5;
  const out = { height: box(row).height, outside: [], broken: [], narrow: [] };
  for (const e of row.querySelectorAll(".cell, .key")) {
    if (!inside(box(e))) out.outside.push(e.className);
  }
  for (const e of row.querySelectorAll(".fb-text, .row-num")) {
    if (!e.checkVisibility()) continue;
    const text = e.firstChild;
    let widest = 0;
    for (const m of text.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      if (range.getClientRects().length > 1) out.broken.push(m[0]);
      widest = Math.max(widest, range.getBoundingClientRect().width);
    }
    if (box(e).width + 0.5 < widest) {
      out.narrow.push(`${e.className}: ${box(e).width}px < ${widest}px`);
    }
    if (!inside(box(e))) out.outside.push(e.className);
  }
  return out;
}"""


@pytest.mark.parametrize("rules,guess", [("mm-8-8", "11223344"), ("mm-6-9", "112233"),
                                         ("super", "11223")])
@pytest.mark.parametrize("width", [360, 390, 1280])
def test_big_game_rows_fit_the_board(pages: Pages, rules: str, guess: str, width: int) -> None:
    """A row of a big game fits its board: at 390 px the answer text of MM(8,8) stood in a
    column 0 px wide, one letter per line, the row 200 px tall and its key pegs cut off,
    and MM(6,9) wrapped "black / s". Now every peg and key peg lies on the board, no word
    is broken, no text is narrower than its longest word, and the row stays one peg row
    high (plus a line of text at most)."""
    page = pages.open(width, 844)
    open_page(page, rules)
    play_guess(page, guess)
    row = page.locator("#board .row[data-index='0']")
    layout = row.evaluate(ROW_LAYOUT_JS)
    assert layout["outside"] == [] and layout["broken"] == [] and layout["narrow"] == [], layout
    assert layout["height"] < 80, layout
    got = page.evaluate(OVERFLOW_JS)
    assert got["scrollWidth"] <= got["width"], f"{rules} at {width} px scrolls sideways {got}"


@pytest.mark.parametrize("width", [360, 390, 1280])
def test_every_use_button_of_a_big_game_is_whole(pages: Pages, width: int) -> None:
    """The MM(8,8) strategies table was wider than its box (398 px in 376), so each "Use"
    button showed as "Us" unless the table was scrolled: now the table fits its box and
    every Use button is whole and inside the hints panel."""
    page = pages.open(width, 844)
    open_page(page, "mm-8-8")
    show_hints(page)
    wait_hints(page, [], "mm-8-8")
    buttons = page.locator("#hint-strategies button.use")
    assert buttons.count() >= 3
    fits = page.evaluate("""() => {
      const box = (e) => e.getBoundingClientRect();
      const panel = box(document.querySelector("#hints"));
      const scroll = document.querySelector("#hint-strategies").parentElement;
      const bad = [];
      if (scroll.scrollWidth > scroll.clientWidth) {
        bad.push(`table ${scroll.scrollWidth} in ${scroll.clientWidth}`);
      }
      for (const b of document.querySelectorAll("#hint-strategies button.use")) {
        const r = box(b);
        if (b.scrollWidth > b.clientWidth) bad.push(`${b.dataset.use} clipped`);
        if (r.left < panel.left || r.right > panel.right) bad.push(`${b.dataset.use} outside`);
        if (r.right > box(scroll).right + 0.5) bad.push(`${b.dataset.use} past the box`);
      }
      return bad;
    }""")
    assert fits == [], fits


# ---------------------------------------------------------------------- requests sent once
def api_requests(page: Page) -> list[str]:
    """Record every API request the page sends, as "METHOD path?query body"."""
    sent: list[str] = []

    def record(request: object) -> None:
        url = request.url  # type: ignore[attr-defined]
        if "/api/" in url:
            path = url.split("/api/", 1)[1]
            body = request.post_data or ""  # type: ignore[attr-defined]
            sent.append(f"{request.method} /api/{path} {body}".strip())  # type: ignore[attr-defined]

    page.on("request", record)
    return sent


def duplicates(sent: list[str]) -> list[str]:
    return sorted({r for r in sent if sent.count(r) > 1})


def test_opening_the_lab_by_its_address_asks_once(page: Page) -> None:
    """Opening ?rules=codebreaker-1#lab entered the Lab twice (before and after the rules
    were loaded), sending GET /api/lab and GET /api/openings twice each."""
    sent = api_requests(page)
    open_page(page, "codebreaker-1", "lab")
    expect(page.locator("#lab-table")).to_have_attribute("data-state", "ready")
    expect(page.locator("#openings-table")).to_have_attribute(  # a 413 here: too big
        "data-state", re.compile("^(ready|error)$"))
    lab = [r for r in sent if r.startswith(("GET /api/lab", "GET /api/openings"))]
    assert sorted(lab) == ["GET /api/lab?rules=codebreaker-1",
                           "GET /api/openings?rules=codebreaker-1"], sent
    assert duplicates(sent) == [], sent


def test_one_assist_clue_asks_for_hints_once(page: Page) -> None:
    """Adding a clue checked it with POST /api/hints, then asked for the same hints again;
    a contradiction was asked (and refused) twice. Now each clue sends one request, whose
    answer fills the panel."""
    open_page(page, mode="assist")
    wait_hints(page, [])
    sent = api_requests(page)
    add_clue(page, "1122", 1, 1)
    wait_hints(page, [("1122", "1B1W")])
    add_clue(page, "1122", 0, 0)  # a contradiction: one request, the error shown
    wait_hints(page, [("1122", "1B1W"), ("1122", "0B0W")], state="error")
    expect(page.locator("#assist-error")).to_be_visible()
    hints = [r for r in sent if r.startswith("POST /api/hints")]
    assert len(hints) == 2 and duplicates(sent) == [], sent
    count = GameState.from_clues(find_rules("classic"), ["1122=1B1W"]).count
    page.click("#assist-remove-1")
    wait_hints(page, [("1122", "1B1W")])
    expect(page.locator("#hint-count")).to_have_attribute("data-count", str(count))


# ---------------------------------------------------------------------- the address
def test_the_address_hash_switches_modes_and_unknown_rules_are_named(page: Page) -> None:
    """A new #mode in the address (typed, or set by a script) switches the mode; an
    unknown ?rules= says so and names the rules shown instead."""
    open_page(page)
    page.evaluate("location.hash = '#lab'")
    expect(page.locator("body")).to_have_attribute("data-mode", "lab")
    expect(page.locator("#mode-lab")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#panel-lab")).to_be_visible()
    expect(page.locator("#lab-table")).to_have_attribute("data-state", "ready")
    page.evaluate("location.hash = '#assist'")
    expect(page.locator("body")).to_have_attribute("data-mode", "assist")
    expect(page.locator("#panel-assist")).to_be_visible()
    page.go_back()  # the hash before: the Lab again
    expect(page.locator("body")).to_have_attribute("data-mode", "lab")
    page.evaluate("location.hash = '#nonsense'")  # an unknown mode is Play
    expect(page.locator("body")).to_have_attribute("data-mode", "play")
    expect(page).to_have_url(re.compile("#play$"))
    # tabs chosen are steps of the history: Back returns to the tab before (it had left
    # the page, each tab replacing the last)
    page.click("#mode-watch")
    page.click("#mode-match")
    expect(page.locator("body")).to_have_attribute("data-mode", "match")
    page.go_back()
    expect(page.locator("body")).to_have_attribute("data-mode", "watch")
    expect(page).to_have_url(re.compile("#watch$"))
    page.go_back()
    expect(page.locator("body")).to_have_attribute("data-mode", "play")
    page.go_forward()
    expect(page.locator("body")).to_have_attribute("data-mode", "watch")

    page.goto(f"{page.base_url}/?rules=nope#play")  # type: ignore[attr-defined]
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#rules-select")).to_have_value("classic")
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator("#message-text")).to_have_text(
        'There are no rules called "nope": Mastermind (classic) is shown instead.')
    page.goto(f"{page.base_url}/?rules={'x' * 500}#play")  # type: ignore[attr-defined]
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#message-text")).to_have_text(  # what was sent, cut to 40
        f'There are no rules called "{"x" * 40}…": Mastermind (classic) is shown instead.')
    page.goto(f"{page.base_url}/?rules=mm#play")  # type: ignore[attr-defined]
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#rules-select")).to_have_value("classic")
    expect(page.locator("#message")).to_be_hidden()  # an alias is no unknown rules


# ---------------------------------------------------------------------- writing a code
def paste(page: Page, box: str, text: str) -> None:
    """Empty `box`, then put `text` in it as a paste does (one input event, no keys)."""
    page.fill(box, "")
    page.locator(box).focus()
    page.keyboard.insert_text(text)


@pytest.mark.parametrize("text", ["1 2 3 4", "1-2-3-4", "1,2,3,4", "R G B Y", " 1, 2 - 3 4 "])
def test_a_pasted_code_with_separators_is_read_whole(page: Page, text: str) -> None:
    """Spaces, commas and dashes between pegs are skipped, in pasted text and in typed
    keys alike (a maxlength used to cut "1 2 3 4" to "1 2 " before they were dropped,
    leaving 12): the box holds 1234, says nothing is wrong, and the code plays. The same
    code box serves Assist and Match; Watch's secret reads the same way."""
    open_page(page)
    paste(page, "#guess-input", text)
    expect(page.locator("#guess-input")).to_have_value("1234")
    expect(page.locator("#play-note")).to_be_hidden()
    page.fill("#guess-input", "")
    page.keyboard.type(text)  # typed key by key: the separators are skipped silently
    expect(page.locator("#guess-input")).to_have_value("1234")
    expect(page.locator("#play-note")).to_be_hidden()
    page.keyboard.press("Enter")
    expect(page.locator("#board .row[data-index='0']")).to_have_attribute("data-guess", "1234")
    page.click("#mode-assist")
    paste(page, "#assist-guess", text)
    expect(page.locator("#assist-guess")).to_have_value("1234")
    expect(page.locator("#assist-note")).to_be_hidden()
    page.click("#mode-watch")
    page.fill("#watch-secret", text)
    page.click("#watch-step")
    expect(page.locator("#watch-secret")).to_have_value("1234")
    expect(page.locator("#watch-board .row[data-index='0']")).to_have_attribute(
        "data-feedback", re.compile("."))


def test_watch_names_a_wrong_secret_in_its_own_words(page: Page) -> None:
    """Play's typing hints had been borrowed ("this one is full: press Enter to play it",
    which does nothing in Watch), a short secret "needed 4 colours" in a game of 4 pegs,
    and the rules were named by their id (classic)."""
    open_page(page)
    page.click("#mode-watch")
    for typed, said in (("1 2 3 4 5", "a code has 4 pegs, not 5."),
                        ("12", "a code has 4 pegs, not 2."),
                        ("1279", '"7" is not a colour of these rules')):
        page.fill("#watch-secret", typed)
        page.click("#watch-step")
        expect(page.locator("#message-text")).to_contain_text(
            f"The secret {typed} is not a code of Mastermind: {said}")
        expect(page.locator("#message-text")).not_to_contain_text("press Enter")
    expect(page.locator("#watch-board .row")).to_have_count(0)


def test_a_refused_guess_is_said_until_the_guess_is_changed(page: Page) -> None:
    """The banner of a guess the server refused (played twice) stayed up beside newer
    notes until a guess was accepted; it goes once the guess is changed."""
    open_page(page)
    page.locator("#guess-input").focus()
    page.keyboard.type("1234")
    page.keyboard.press("Enter")
    expect(page.locator("#board .row[data-index='0']")).to_have_attribute("data-guess", "1234")
    page.keyboard.type("1234")
    page.keyboard.press("Enter")
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator("#message-text")).to_contain_text("Guess 1234 not played")
    page.keyboard.press("Backspace")
    expect(page.locator("#message")).to_be_hidden()
    expect(page.locator("#guess-input")).to_have_value("123")


def test_the_labs_button_is_there_after_a_failure(page: Page) -> None:
    """"Recompute" had asked again for a lab that is the same each time (shipped, exact, or
    sampled with a fixed seed); "Try again" shows only after a lab failed to load."""
    failed = []

    def fail_once(route) -> None:  # noqa: ANN001
        if not failed:
            failed.append(route.request.url)
            route.fulfill(status=503, content_type="application/json",
                          body='{"detail": "the server is busy."}')
        else:
            route.continue_()

    page.route("**/api/lab?*", fail_once)
    open_page(page, mode="lab")
    table = page.locator("#lab-table")
    expect(table).to_have_attribute("data-state", "error")
    expect(page.locator("#lab-run")).to_be_visible()
    expect(page.locator("#lab-run")).to_have_text("Try again")
    page.click("#lab-run")
    expect(table).to_have_attribute("data-state", "ready")
    expect(page.locator("#lab-run")).to_be_hidden()
    assert failed


def test_watch_survives_a_reload(page: Page) -> None:
    """A reload had lost the watched board, its secret and its strategy (Play, Assist and
    Match keep theirs); Reset forgets it."""
    open_page(page)
    page.click("#mode-watch")
    page.select_option("#watch-strategy", "maxsize")
    page.fill("#watch-secret", "3456")
    page.click("#watch-step")
    board = page.locator("#watch-board")
    expect(board).to_have_attribute("data-rows", "1")
    page.click("#watch-step")
    expect(board).to_have_attribute("data-rows", "2")
    rows = [r.get_attribute("data-guess") for r in board.locator(".row").all()]
    status = page.locator("#watch-status").inner_text()
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.click("#mode-watch")
    expect(board).to_have_attribute("data-rows", "2")
    assert [r.get_attribute("data-guess") for r in board.locator(".row").all()] == rows
    expect(page.locator("#watch-strategy")).to_have_value("maxsize")
    expect(page.locator("#watch-secret-view")).to_contain_text("3456")
    expect(page.locator("#watch-status")).to_have_text(status)
    page.click("#watch-step")  # and it goes on from there
    expect(board).to_have_attribute("data-rows", "3")
    page.click("#watch-reset")
    expect(board).to_have_attribute("data-rows", "0")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.click("#mode-watch")
    expect(board).to_have_attribute("data-rows", "0")


def test_watch_forgets_a_secret_of_other_rules(page: Page) -> None:
    """A secret typed (or drawn) for Mastermind had stayed in Watch's box under Bulls and
    Cows or Codebreaker, which then refused or misread it: new rules empty the box; a
    board watched under those rules is still restored with its own secret."""
    open_page(page, mode="watch")
    page.fill("#watch-secret", "1122")
    page.select_option("#rules-select", "bulls-and-cows")
    expect(page.locator("body")).to_have_attribute("data-rules", "bulls-and-cows")
    expect(page.locator("#watch-secret")).to_have_value("")
    page.click("#watch-random")
    expect(page.locator("#watch-secret")).to_have_value(re.compile(r"^\d{4}$"))
    page.select_option("#rules-select", "codebreaker-4")
    expect(page.locator("body")).to_have_attribute("data-rules", "codebreaker-4")
    expect(page.locator("#watch-secret")).to_have_value("")
    page.fill("#watch-secret", "01234")
    page.click("#watch-step")
    expect(page.locator("#watch-board")).to_have_attribute("data-rows", "1")
    page.select_option("#rules-select", "classic")
    expect(page.locator("#watch-secret")).to_have_value("")
    page.select_option("#rules-select", "codebreaker-4")  # its own board comes back
    expect(page.locator("#watch-board")).to_have_attribute("data-rows", "1")
    expect(page.locator("#watch-secret")).to_have_value("01234")


def test_positional_boards_explain_their_marks(page: Page) -> None:
    """Play and Watch under per-peg marks say what green, amber and gray mean, next to the
    board (only Assist had said it); under black and white pegs there is no such legend."""
    open_page(page)
    expect(page.locator("#board-legend")).to_be_hidden()
    page.select_option("#rules-select", "codebreaker-4")
    expect(page.locator("body")).to_have_attribute("data-rules", "codebreaker-4")
    words = ["green: right place", "amber: in the code, elsewhere", "gray: not in the code"]
    legend = page.locator("#board-legend")
    expect(legend).to_be_visible()
    expect(legend.locator(".legend-item")).to_have_text(words)
    for mark, item in zip(("green", "amber", "gray"), legend.locator(".mini-mark").all(),
                          strict=True):
        assert f"mark-{mark}" in (item.get_attribute("class") or "")
    page.click("#mode-watch")
    expect(page.locator("#watch-legend")).to_be_visible()
    expect(page.locator("#watch-legend .legend-item")).to_have_text(words)
    page.select_option("#rules-select", "bulls-and-cows")
    expect(page.locator("#watch-legend")).to_be_hidden()
    page.click("#mode-play")
    expect(page.locator("#board-legend")).to_be_hidden()


def test_the_guess_box_shows_its_whole_example(page: Page) -> None:
    """MM(8,8)'s guess box cut its placeholder ("e.g. 12345678") short."""
    for rules in ("classic", "mm-8-8"):
        open_page(page, rules)
        box = page.locator("#guess-input")
        assert box.get_attribute("placeholder") == "e.g. " + "12345678"[:4 if rules ==
                                                                       "classic" else 8]
        room, need = box.evaluate("""e => {
            const s = getComputedStyle(e);
            const c = document.createElement("canvas").getContext("2d");
            c.font = `${s.fontSize} ${s.fontFamily}`;
            return [e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight),
                    c.measureText(e.placeholder).width];
        }""")
        assert need <= room, (rules, need, room)


def test_give_up_asks_first(page: Page) -> None:
    """One click on Give up ended the game (in a match, conceding the most points a game
    can give) while New match asked first: both give-ups now ask, and No keeps playing."""
    asked: list[str] = []

    def answer(accept: bool):
        def on(dialog) -> None:  # noqa: ANN001
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()
        return on

    open_page(page, "classic")
    first = play_guess(page, "1122")
    page.once("dialog", answer(False))
    page.click("#give-up")
    expect(page.locator("#panel-play")).not_to_have_attribute("data-state", "gave-up")
    assert asked == ["Give up this game? The secret is shown and the game ends."]
    assert board_history(page) == [first]
    game = page.locator("body").get_attribute("data-game")
    status, view = api(page, "GET", f"/api/games/{game}")
    assert status == 200 and not view["over"]
    page.once("dialog", answer(True))
    page.click("#give-up")
    expect(page.locator("#panel-play")).to_have_attribute("data-state", "gave-up")
    # a match: the question names what giving up costs
    open_page(page, "mini", "match")
    match_id = start_match(page)
    expect(page.locator("#match-give-up")).to_be_visible()
    page.once("dialog", answer(False))
    page.click("#match-give-up")
    match_idle(page)
    status, view = api(page, "GET", f"/api/matches/{match_id}")
    assert status == 200 and not view["played"][0]["over"], view
    assert asked[-1] == f"Give up this game? The codemaker scores {view['max_points']} points."
    page.once("dialog", answer(True))
    page.click("#match-give-up")
    match_idle(page)
    status, view = api(page, "GET", f"/api/matches/{match_id}")
    assert view["played"][0]["gave_up"], view


@pytest.mark.parametrize("width", [360, 390, 1280])
def test_every_preset_name_fits_the_rules_menu(pages: Pages, width: int) -> None:
    """On a phone the closed menu cut 'Mastermind with 8 pegs and 8 colours' (258 px of
    text in a 249 px box): every preset's name now fits beside the menu's arrow."""
    from keypeg.rules import PRESETS

    page = pages.open(width, 800)
    open_page(page, "classic")
    for preset in PRESETS:
        page.select_option("#rules-select", preset.name)
        room = page.evaluate("""() => {
          const s = document.querySelector('#rules-select'), cs = getComputedStyle(s);
          const c = document.createElement('canvas').getContext('2d');
          c.font = cs.font;
          const text = c.measureText(s.options[s.selectedIndex].text).width;
          const box = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
          return box - 20 - text;  // (20 px: the arrow)
        }""")
        assert room >= 0, (preset.name, width, room)
