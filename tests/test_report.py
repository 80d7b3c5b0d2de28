"""`keypeg report`: the report builds from a clean store, holds every figure (PNG files of
some size, each shown by index.html), and the numbers its captions and tables quote are the
published ones (data/published.json, from seed 000) or a plain-Python reference's
(tests/naive.py), never the report's own."""

from __future__ import annotations

import html
import json
import os
import re
import struct
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from keypeg.published import published
from keypeg.strategies import TABLE_STRATEGIES
from tests.naive import all_codes, blackwhite, naive_consistent_total, naive_optimal

PUB = published()
CLASSIC = PUB["evaluate"]["classic"]["all_probes"]
OPTIMAL = PUB["optimal"]["classic"]
STRATEGIES = ("optimal", *TABLE_STRATEGIES)
FIGURES = [*(f"hist-{s}.png" for s in STRATEGIES), "openings.png", "ledger.png",
           "entropy-study.png"]
#: A figure smaller than this is blank or broken.
MIN_PNG_BYTES = 5_000


def keypeg(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KEYPEG_DB": str(db)}  # a fresh store: nothing solved before
    return subprocess.run([sys.executable, "-m", "keypeg", *args], capture_output=True,
                          text=True, env=env, timeout=300)


class Page(HTMLParser):
    """The parts of index.html the tests read: images, figures (attributes and captions),
    table cells by row and strategy, notes."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.images: list[str] = []
        self.figures: dict[str, dict[str, str]] = {}
        self.captions: dict[str, str] = {}
        self.cells: dict[tuple[str, str], str] = {}  # (first guess, strategy) -> text
        self.notes: list[str] = []
        self._figure: str | None = None
        self._row: str | None = None
        self._cell: str | None = None
        self._caption = self._note = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "img":
            self.images.append(a["src"])
        elif tag == "figure":
            self._figure = a["id"]
            self.figures[a["id"]] = a
            self.captions[a["id"]] = ""
        elif tag == "figcaption":
            self._caption = True
        elif tag == "tr" and "data-first-guess" in a:
            self._row = a["data-first-guess"]
        elif tag == "td" and self._row and "data-strategy" in a:
            self._cell = a["data-strategy"]
            self.cells[self._row, self._cell] = ""
        elif tag == "p" and a.get("class") == "note":
            self._note = True
            self.notes.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "figcaption":
            self._caption = False
        elif tag == "td":
            self._cell = None
        elif tag == "tr":
            self._row = None
        elif tag == "p":
            self._note = False

    def handle_data(self, data: str) -> None:
        if self._caption and self._figure:
            self.captions[self._figure] += data
        if self._row and self._cell:
            self.cells[self._row, self._cell] += data
        if self._note:
            self.notes[-1] += data


def paragraph(page_text: str, section: str) -> str:
    """The text of the first paragraph after a section's heading (tags dropped)."""
    start = page_text.index(f'<h2 id="{section}">')
    body = page_text[page_text.index("<p>", start): page_text.index("</p>", start)]
    return html.unescape(re.sub(r"<[^>]+>", "", body))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Page]:
    tmp = tmp_path_factory.mktemp("report")
    out = tmp / "classic"  # does not exist yet: the report creates it
    run = keypeg("report", "--rules", "classic", "--out", str(out), db=tmp / "k.db")
    assert run.returncode == 0, run.stderr
    assert "wrote" in run.stdout and "9 figures" in run.stdout
    return out, Page((out / "index.html").read_text())


def test_every_figure_is_written_and_shown(classic: tuple[Path, Page]) -> None:
    out, page = classic
    for name in FIGURES:
        path = out / name
        assert path.stat().st_size > MIN_PNG_BYTES, name
        width, height = png_size(path)
        assert width >= 300 and height >= 150, (name, width, height)
    assert sorted(page.images) == sorted(FIGURES)
    assert sorted(p.name for p in out.glob("*.png")) == sorted(FIGURES)
    assert not page.notes  # nothing is out of reach for classic


def test_histogram_captions_are_the_published_numbers(classic: tuple[Path, Page]) -> None:
    _, page = classic
    want = {**CLASSIC, "optimal": OPTIMAL}
    for name in STRATEGIES:
        row = want[name]
        caption = page.captions[f"fig-hist-{name}"]
        assert f"{row['total']:,} guesses in all" in caption, caption
        assert f"mean {row['total'] / 1296:.4f}" in caption, caption
        assert f"worst {row['worst']}" in caption and f"first guess {row['first_guess']}" in caption
        assert " / ".join(f"{n:,}" for n in row["histogram"]) in caption, caption
        assert page.figures[f"fig-hist-{name}"]["data-total"] == str(row["total"])


def test_first_guess_table_is_seed_000s(classic: tuple[Path, Page]) -> None:
    out, page = classic
    # seed 000's "optimum after each first guess": one row per class, in its order
    after = OPTIMAL["after_first_guess"]
    for first, row in after.items():
        assert page.cells[first, "optimal"] == f"{row['total']:,}", first
    best = min(after, key=lambda f: after[f]["total"])
    assert (best, after[best]["total"]) == (OPTIMAL["first_guess"], OPTIMAL["total"])
    caption = page.captions["fig-openings"]
    assert f"The best opening is AABC ({best}): {OPTIMAL['total']:,} guesses" in caption
    assert page.figures["fig-openings"]["data-best-total"] == str(OPTIMAL["total"])
    # a strategy opening with its own first guess is the strategy itself
    for name in TABLE_STRATEGIES:
        assert page.cells[CLASSIC[name]["first_guess"], name] == f"{CLASSIC[name]['total']:,}"
    # seed 002's consistent strategy made to open with 1122
    forced = PUB["evaluate"]["classic"]["consistent_forced_first"]["1122"]["total"]
    assert page.cells["1122", "consistent"] == f"{forced:,}"
    # the strategies' best openings are named by the code played, not by its class (a
    # one-step strategy's total differs within a class: it breaks ties by code order)
    maxsize = CLASSIC["maxsize"]
    assert f"maxsize {maxsize['first_guess']} {maxsize['total']:,}" in caption, caption
    assert "the same for every code of a class" in (out / "index.html").read_text()
    numbers = json.loads((out / "numbers.json").read_text())
    assert [r["first_guess"] for r in numbers["openings"]["rows"]] == list(after)


def test_the_first_guess_table_says_it_plays_first_codes_only(
        classic: tuple[Path, Page]) -> None:
    """The table plays each class's first code; the report must not read as if a column's
    bold figure were the strategy's best opening: it says other codes of a class can do
    better, and on classic shows one (seed 002's consistent opening 3456, 6,045, against
    the 6,671 of 1234, ABCD's first code, and 6,508, the table's lowest, from 1122)."""
    out, page = classic
    text = paragraph((out / "index.html").read_text(), "openings")
    forced = PUB["evaluate"]["classic"]["consistent_forced_first"]
    abcd = naive_consistent_total(4, 6, (0, 1, 2, 3))  # 1234, the first code of ABCD
    assert "played from its first code only" in text, text
    assert "another code of a class can do better than its first code" in text, text
    assert (f"consistent takes {forced['3456']['total']:,} guesses opening with 3456 but "
            f"{abcd:,} with 1234, the first code of its class ABCD, fewer than any first "
            f"code here (the lowest, 1122, takes {forced['1122']['total']:,})") in text, text
    assert "pegs reordered" in text  # black/white answers: positions permute
    caption = page.captions["fig-openings"]
    assert "other codes of a class can do better" in caption, caption
    assert "best of these first codes" not in caption


def test_ledger_and_entropy_captions_are_published(classic: tuple[Path, Page]) -> None:
    _, page = classic
    totals = PUB["ledger"]["totals"]
    cells = sum(len(row) for row in totals.values())
    caption = page.captions["fig-ledger"]
    assert f"for {cells} games" in caption
    assert page.figures["fig-ledger"]["data-cells"] == str(cells)
    assert f"MM(4,6) = {totals['4']['6']:,} (mean {totals['4']['6'] / 6**4:.4f})" in caption
    assert f"MM(4,7) = {totals['4']['7']:,}" in caption
    study = PUB["entropy_study"]["classic"]
    caption = page.captions["fig-entropy-study"]
    assert (f"{study['tied']} of {study['decisions']} decisions of the exact entropy tree are "
            f"tied ({study['tied_across_sizes']} between") in caption
    assert f"exact total {study['exact_total']:,}" in caption
    for total, differing in study["spellings"].values():
        assert f"{total:,} ({differing} of {study['decisions']} decisions differ)" in caption


def test_a_small_game_against_plain_python(tmp_path: Path) -> None:
    out = tmp_path / "r"
    run = keypeg("report", "--pegs", "3", "--colors", "3", "--out", str(out),
                 db=tmp_path / "k.db")
    assert run.returncode == 0, run.stderr
    page = Page((out / "index.html").read_text())
    assert sorted(page.images) == sorted(FIGURES)
    codes = all_codes(3, 3)
    optimum = naive_optimal(codes, codes, "blackwhite")
    assert optimum == PUB["ledger"]["totals"]["3"]["3"]
    assert f"{int(optimum)} guesses in all" in page.captions["fig-hist-optimal"]
    assert "MM(3,3) = 73" in page.captions["fig-ledger"]
    text = paragraph((out / "index.html").read_text(), "openings")  # classic's, not quoted
    assert "classic" not in text and "5,803" not in text and "For example" not in text, text
    for first in ((0, 0, 0), (0, 0, 1), (0, 1, 2)):  # AAA, AAB, ABC
        text = "".join(str(x + 1) for x in first)
        parts: dict[tuple[int, int], list[tuple[int, ...]]] = {}
        for s in codes:
            parts.setdefault(blackwhite(s, first), []).append(s)
        forced = len(codes) + sum(naive_optimal(codes, p, "blackwhite")
                                  for fb, p in parts.items() if fb != (3, 0))
        assert page.cells[text, "optimal"] == f"{int(forced):,}", text
        assert page.cells[text, "consistent"] == f"{naive_consistent_total(3, 3, first):,}"


def test_a_big_game_says_what_is_out_of_reach(tmp_path: Path) -> None:
    """Made in the folder of an earlier report (another game's: its optimum, first-guess
    table and study drawn), the report leaves none of that game's figures behind, and
    touches no file of the teacher's."""
    out = tmp_path / "r"
    out.mkdir()
    earlier = ["hist-optimal.png", "openings.png", "entropy-study.png", "hist-knuth.png"]
    for name in earlier:
        (out / name).write_bytes(b"\x89PNG an earlier game's figure")
    (out / "numbers.json").write_text(json.dumps({
        "rules": {"name": "classic"}, "figures": ["openings.png", "../outside.png"],
        "strategies": {"rows": [{"strategy": "optimal"}, {"strategy": "knuth"}]}}))
    mine = {"notes.png": b"mine", "hist-optimal.txt": b"mine", "hist-mine.png": b"mine"}
    for name, data in mine.items():
        (out / name).write_bytes(data)
    (tmp_path / "outside.png").write_bytes(b"mine")
    run = keypeg("report", "--rules", "super", "--out", str(out), db=tmp_path / "k.db")
    assert run.returncode == 0, run.stderr
    page = Page((out / "index.html").read_text())
    drawn = sorted([*(f"hist-{s}.png" for s in TABLE_STRATEGIES), "ledger.png"])
    assert sorted(page.images) == drawn
    assert sorted(p.name for p in out.glob("*.png")) == sorted([*drawn, "notes.png",
                                                                "hist-mine.png"])
    assert all((out / name).read_bytes() == data for name, data in mine.items())
    assert (tmp_path / "outside.png").exists()
    assert len(page.notes) >= 3 and any("first-guess table" in n for n in page.notes)
    assert run.stderr.count("note:") == 4
    assert re.search(r"note: removed 4 figures of an earlier report from \S+ that this one "
                     r"does not draw \(entropy-study.png, hist-knuth.png, hist-optimal.png, "
                     r"openings.png\)\.\n", run.stderr), run.stderr


@pytest.mark.parametrize("where", ["file", "under-file", "empty"])
def test_an_unwritable_folder_is_one_sentence(tmp_path: Path, where: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("a file")
    out = {"file": str(blocker), "under-file": str(blocker / "report"), "empty": ""}[where]
    monkeypatch.chdir(tmp_path)  # an empty --out must not write here
    run = keypeg("report", "--rules", "mini", "--out", out, db=tmp_path / "k.db")
    assert run.returncode == 2
    assert run.stderr.startswith("error: --out ") and run.stderr.count("\n") == 1, run.stderr
    assert blocker.read_text() == "a file"
    assert not (tmp_path / "index.html").exists()


@pytest.mark.parametrize("args", [["--rules", "chess"], ["--pegs", "0"],
                                  ["--rules", "classic", "--pegs", "3"],
                                  ["--rules", "classic", "--max-seconds", "0"]])
def test_bad_rules_are_one_sentence(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "r"
    run = keypeg("report", *args, "--out", str(out), db=tmp_path / "k.db")
    assert run.returncode == 2
    assert re.fullmatch(r"error: [^\n]+\n", run.stderr), run.stderr
    assert not out.exists()


def test_a_new_cells_optimum_not_reached_says_so():
    """A cell's W or MM* not found within the time tried reads 'not within N s' in the
    report's table, not a number (every shipped cell has both now)."""
    import re

    from keypeg.report import _new_cells_table, new_cells

    row = dict(new_cells()[0], label="MM(9,9)", worst_first={"tried_seconds": 9000.0},
               possible_only=None)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", _new_cells_table([row]))
    assert cells[6:8] == ["not within 9,000 s", "—"]


def test_the_new_cells_are_listed_beyond_the_ledger(classic: tuple[Path, Page]) -> None:
    """keypeg's own optima (the shipped cells, replayed in tests/test_cells.py) were in the
    README only; the report lists them after the ledger, with W, MM* and any published
    value."""
    import re

    from keypeg.solver.cells import stored_cells

    out, _ = classic
    text = (out / "index.html").read_text()
    rows = re.findall(r'<tr data-label="([^"]+)" data-total="(\d+)">(.*?)</tr>', text)
    cells = stored_cells()
    assert [(html.unescape(label), int(total)) for label, total, _ in rows] == [
        (c["label"], c["total"]) for c in cells]
    by = {html.unescape(label): re.findall(r"<td[^>]*>(.*?)</td>", body)
          for label, _, body in rows}
    assert by["MM(4,8)"][2] == "20,471" and by["MM(4,8)"][-1] == "20,471 (agrees)"
    for label in ("MM(5,5)", "MM(4,10)"):  # (MM(4,10)'s W: the caps searched, checkpointed)
        cell = next(c for c in cells if c["label"] == label)
        w = cell["worst_first"]
        assert by[label][6] == f"{w['worst']}: {w['total']:,}"
    numbers = json.loads((out / "numbers.json").read_text())
    assert len(numbers["new_cells"]) == len(cells)


def test_a_positional_game_says_its_pegs_keep_their_places(tmp_path: Path) -> None:
    """With per-peg answers and repeated colours, 112, 121 and 211 are not alike (which
    copy of 1 is amber depends on the order): the classes are AAB, ABA and ABB, and the
    report does not say pegs are reordered."""
    out = tmp_path / "r"
    run = keypeg("report", "--pegs", "3", "--colors", "3", "--positional", "--out", str(out),
                 db=tmp_path / "k.db")
    assert run.returncode == 0, run.stderr
    text = (out / "index.html").read_text()
    assert [c for c in ("AAB", "ABA", "ABB") if f'data-class="{c}"' in text] == [
        "AAB", "ABA", "ABB"]
    words = paragraph(text, "openings")
    assert "pegs reordered" not in words and "classic" not in words, words
    assert "once colours are renamed, each peg kept in its place" in words, words


@pytest.mark.parametrize("pegs,colors,repeats,name", [(2, 2, True, "MM(2,2)"),
                                                      (2, 3, False, "MM(2,3) [no repeats]")])
def test_every_figure_names_its_game_and_fits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              pegs: int, colors: int, repeats: bool,
                                              name: str) -> None:
    """With one or two opening classes the heat map's y label used to be cut off at both
    ends, and the histograms and the study's figure did not say which game they show."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    import keypeg.report as report_module
    from keypeg.rules import Rules
    from keypeg.store import Store

    drawn = {}
    save = report_module._save

    def keep(report: report_module.Report, fig: Any, figure_name: str) -> None:
        drawn[figure_name] = fig
        save(report, fig, figure_name)

    monkeypatch.setattr(report_module, "_save", keep)
    rules = Rules(pegs=pegs, colors=colors, repeats=repeats)
    report_module.build_report(rules, tmp_path / "r", store=Store(tmp_path / "k.db"))
    assert sorted(drawn) == sorted(FIGURES)
    for figure_name, fig in drawn.items():
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        renderer = canvas.get_renderer()
        box = fig.bbox
        for ax in fig.axes:
            for text in (ax.title, ax.xaxis.label, ax.yaxis.label):
                if not text.get_text():
                    continue
                at = text.get_window_extent(renderer)
                assert (at.x0 >= box.x0 - 1 and at.y0 >= box.y0 - 1 and at.x1 <= box.x1 + 1
                        and at.y1 <= box.y1 + 1), (figure_name, text.get_text(), at, box)
        if figure_name != "ledger.png":  # (the ledger is every game's)
            title = fig.axes[0].get_title()
            assert title.startswith(f"{name}"), (figure_name, title)


def test_the_study_caption_writes_thousands_like_the_rest() -> None:
    """Bulls-and-cows' study has 1,636 decisions: '1611 of 1636' read oddly beside 26,424."""
    from keypeg.report import study_caption

    study = {"decisions": 1636, "tied": 1611, "tied_across_sizes": 3, "exact_total": 26424,
             "spellings": [{"spelling": "plnp", "total": 26429, "differing": 1010}]}
    caption = study_caption(study)
    assert caption.startswith("1,611 of 1,636 decisions of the exact entropy tree are tied")
    assert "sum p*ln p: 26,429 (1,010 of 1,636 decisions differ)" in caption, caption
