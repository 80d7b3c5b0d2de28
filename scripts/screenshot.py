#!/usr/bin/env python3
"""Write docs/screenshot.png: the page at 1280x900 in the middle of a classic game.

Starts the app on a free loopback port with a database in a temporary folder (as the
browser tests do), opens the page in Debian's chromium through Playwright, shows the hints,
plays two guesses, writes a third (the one keypeg recommends) so the cut bars show, and
takes the screenshot.

    .venv/bin/python scripts/screenshot.py                 # docs/screenshot.png
    .venv/bin/python scripts/screenshot.py --out /tmp/a.png --size 390x844 --rules bulls

Set KEYPEG_CHROMIUM to use another chromium binary.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the tables the tests build, when there are some
os.environ.setdefault("KEYPEG_CACHE_DIR", str(ROOT / ".keypeg-cache"))
CHROMIUM = os.environ.get("KEYPEG_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]


from keypeg.web.local import serve_locally as serve  # noqa: E402


def shoot(url: str, out: Path, width: int, height: int, rules: str) -> None:
    """Drive the page to the middle of a game and write the screenshot to `out`."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"{url}/?rules={rules}#play")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.click("#hints-toggle")
        hints = page.locator("#hints")
        for n in range(2):
            expect(hints).to_have_attribute("data-state", "ready")
            guess = page.locator("#hint-recommended").get_attribute("data-guess")
            page.locator("#guess-input").focus()
            page.keyboard.type(guess or "")
            page.keyboard.press("Enter")
            expect(page.locator(f"#board .row[data-index='{n}'][data-feedback]")).to_have_count(1)
            if page.locator("#play-result").is_visible():
                break
        expect(hints).to_have_attribute("data-state", "ready")
        if page.locator("#use-recommended").count():
            page.click("#use-recommended")
            expect(page.locator("#cut-bars")).to_have_attribute("data-state", "ready")
        page.mouse.move(0, 0)
        page.evaluate("window.scrollTo(0, 0)")
        out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(out))
        browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    parser.add_argument("--size", default="1280x900", help="viewport, WIDTHxHEIGHT")
    parser.add_argument("--rules", default="classic")
    args = parser.parse_args(argv)
    width, height = (int(x) for x in args.size.lower().split("x"))
    if not Path(CHROMIUM).exists():
        print(f"no chromium at {CHROMIUM} (set KEYPEG_CHROMIUM)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="keypeg-shot-") as tmp, \
            serve(Path(tmp) / "keypeg.db") as url:
        shoot(url, args.out, width, height, args.rules)
    print(f"wrote {args.out} ({width}x{height})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
