"""`keypeg report`: a static HTML report with figures (matplotlib, the Agg backend).

For one rules value it writes, into a folder, ``index.html`` (self-contained apart from the
figures next to it), one PNG per figure and ``numbers.json`` (every number the captions
quote):

- a histogram per strategy (the five one-step strategies and the optimum where it is known
  or found in time): how many secrets each finds on guess 1, 2, ...;
- the first-guess table (`keypeg.openings`): every opening class under each strategy and
  the optimum after it, as a heat map and a table;
- the ledger of optimal totals (pegs x colours, `data/published.json` as the solver's
  ledger module reads it) as a heat map of the mean guesses per secret, and after it
  keypeg's own optima beyond the ledger (the shipped new cells, with W and MM*) as a table;
- the entropy float study (`keypeg.study`): the totals of the float spellings of the
  entropy rule and how many decisions each takes differently.

Where a part is out of reach for the rules (a game too big to evaluate exactly here, an
optimal search past its time), the report says so in that section instead of a figure.
Figures an earlier report left in the folder and this one does not draw (another game's
optimum, say) are removed; no other file is touched.
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import KeypegError, LimitExceededError
from .labs import lab
from .limits import EXACT_HINT_CODES, REPORT_OPTIMAL_SECONDS, shorten
from .openings import first_guess_table
from .rules import Rules, find_rules, rules_name
from .store import Store

#: The parts of a report, in order (what the progress callback counts).
STEPS = ("strategies", "first guesses", "ledger", "entropy study", "figures")
#: Dots per inch of the PNG figures.
DPI = 110
#: How the strategies are called in captions.
LABELS = {"optimal": "optimal", "consistent": "consistent", "maxsize": "maxsize (Knuth)",
          "expsize": "expsize (Irving)", "entropy": "entropy (Neuwirth)", "parts": "parts (Kooi)"}
#: The least height of the first-guess heat map, in inches (its y label's length).
OPENINGS_MIN_HEIGHT = 2.8
#: The figures a report may write besides the histograms (``hist-STRATEGY.png``).
FIGURE_NAMES = ("openings.png", "ledger.png", "entropy-study.png")
#: An opening the report plays besides the first-guess table, by the code space it is for
#: (`Rules.key`): a strategy that does better from it than from its class's first code.
OPENING_EXAMPLES = {find_rules("classic").key: ("consistent", "3456")}


@dataclass
class Report:
    """What `build_report` wrote: the folder, its index, the figures and the numbers."""

    out: Path
    rules: Rules
    figures: list[str] = field(default_factory=list)
    numbers: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: Figures of an earlier report in the folder, removed before this one was written.
    removed: list[str] = field(default_factory=list)

    @property
    def index(self) -> Path:
        return self.out / "index.html"


def prepare_folder(out: Path) -> None:
    """Create the report's folder if needed; raise `KeypegError` (one sentence) when it is a
    file or cannot be created or written to."""
    if out.exists() and not out.is_dir():
        raise KeypegError(f"--out {shorten(out)!r} is a file; give a folder for the report.")
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".keypeg-report-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise KeypegError(
            f"--out {shorten(out)!r} cannot be written to ({reason.lower()}).") from None


def earlier_figures(out: Path) -> list[str]:
    """Return the names of the figures an earlier report may have left in `out`: those its
    numbers.json lists or implies, and the names any report writes (the histograms of the
    known strategies and `FIGURE_NAMES`), each only where such a file is there."""
    names = {*(f"hist-{s}.png" for s in LABELS), *FIGURE_NAMES}
    try:
        earlier = json.loads((out / "numbers.json").read_text())
    except (OSError, ValueError):
        earlier = None
    if isinstance(earlier, dict):
        listed = earlier.get("figures")
        rows = (earlier.get("strategies") or {}).get("rows") or []
        if isinstance(listed, list):
            names.update(n for n in listed if isinstance(n, str))
        names.update(f"hist-{r['strategy']}.png" for r in rows
                     if isinstance(r, dict) and isinstance(r.get("strategy"), str))
    # (a name from the file stays a plain file name in this folder)
    return sorted(n for n in names if n == Path(n).name and n.endswith(".png")
                  and (out / n).is_file())


def remove_figures(out: Path, names: list[str]) -> list[str]:
    """Remove the figures `names` (from `earlier_figures`, less those just written again)
    from `out`, so that no figure of another game or run stays next to the new index.html;
    return their names. No other file is touched."""
    for name in names:
        (out / name).unlink(missing_ok=True)
    return names


def build_report(rules: Rules, out: Path, *, store: Store | None = None,
                 seconds: float = REPORT_OPTIMAL_SECONDS,
                 on_step: Callable[[str, int], None] | None = None) -> Report:
    """Compute everything the report shows for `rules` and write it into `out` (created if
    needed). `seconds` bounds each optimal search; `on_step(what, done)` reports progress
    over `STEPS`."""
    started = time.perf_counter()
    out = Path(out)
    prepare_folder(out)
    report = Report(out, rules)
    earlier = earlier_figures(out)  # (read before numbers.json is written again)

    def step(i: int, what: str) -> None:
        if on_step is not None:
            on_step(what, i)

    step(0, "evaluating the strategies")
    report.numbers["rules"] = {"name": rules_name(rules), "describe": rules.describe(),
                               "codes": rules.size}
    report.numbers["strategies"] = strategy_rows(rules, store, seconds, report.notes)
    step(1, "playing every opening")
    report.numbers["openings"] = table = _maybe(
        report, lambda: first_guess_table(rules, store=store, seconds=seconds,
                                          on_step=lambda w: step(1, w)))
    if table is not None:
        table["example"] = opening_example(rules, table)
    step(2, "the ledger")
    report.numbers["ledger"] = ledger_cells()
    report.numbers["new_cells"] = new_cells()
    step(3, "the entropy float study")
    report.numbers["entropy_study"] = _maybe(
        report, lambda: study_numbers(rules, on_step=lambda w: step(3, f"the study: {w}")))
    step(4, "drawing the figures")
    write_figures(report)
    report.numbers["figures"] = report.figures
    report.removed = remove_figures(out, [n for n in earlier if n not in report.figures])
    report.seconds = round(time.perf_counter() - started, 2)
    report.numbers["seconds"] = report.seconds
    (out / "numbers.json").write_text(json.dumps(report.numbers, indent=1) + "\n")
    report.index.write_text(render_html(report))
    return report


def _maybe(report: Report, work: Callable[[], Any]) -> Any:
    """Return `work()`, or None with its one-sentence reason added to the notes."""
    try:
        return work()
    except LimitExceededError as exc:
        report.notes.append(str(exc))
        return None


# ----------------------------------------------------------------------------- numbers
def strategy_rows(rules: Rules, store: Store | None, seconds: float,
                  notes: list[str]) -> dict[str, Any]:
    """Return the lab of `rules` (shipped, exact, or sampled and labelled so) with the
    optimal row first: from the lab, else a stored, shipped or new optimal tree."""
    data = lab(rules)
    rows = [dict(r) for r in data["rows"]]
    if not any(r["strategy"] == "optimal" for r in rows) and rules.size > EXACT_HINT_CODES:
        notes.append(f"the optimum of {rules_name(rules)} is not known to keypeg, and its "
                     f"search is out of reach here ({rules.size:,} codes), so it has no "
                     "histogram.")
    elif not any(r["strategy"] == "optimal" for r in rows):
        from .solver.cached import optimal

        try:
            result, _ = optimal(rules, max_guesses=rules.max_guesses, store=store,
                                time_limit=seconds)
        except LimitExceededError:
            notes.append(f"the optimum of {rules_name(rules)} was not found within "
                         f"{seconds:g} s, so it has no histogram here.")
        else:
            rows.append({**result.tree.summary(), "strategy": "optimal"})
    rows.sort(key=lambda r: r["strategy"] != "optimal")
    return {"exact": data["exact"], "secrets": data["secrets"], "rows": rows,
            "note": data.get("note")}


def ledger_cells() -> list[dict[str, Any]]:
    """Return the ledger's cells: pegs, colours, optimal total and mean (published)."""
    from .solver.ledger import LEDGER_CELLS

    return [{"pegs": p, "colors": c, "total": t, "mean": round(t / c**p, 4)}
            for p, c, t in LEDGER_CELLS]


def new_cells() -> list[dict[str, Any]]:
    """Return keypeg's own optima beyond the ledger (the stored new cells, each proven twice
    and shipped with its tree): label, codes, total, mean, worst case, first guess, W (the
    fewest worst case, at its total) and MM* (possible codes only) where known, and the
    published value where one source has it."""
    from .solver.cells import stored_cells

    out = []
    for c in stored_cells():
        row = {k: c[k] for k in ("label", "codes", "total", "mean", "worst", "first_guess",
                                  "published", "agrees")}
        for key in ("worst_first", "possible_only"):
            v = c.get(key)
            row[key] = (None if v is None else {"total": v["total"], "worst": v["worst"]}
                        if "total" in v else {"tried_seconds": v["seconds"]})
        out.append(row)
    return out


def study_numbers(rules: Rules, on_step: Callable[[str], None] | None = None
                  ) -> dict[str, Any]:
    """Return the entropy float study of `rules` (games of at most `EXACT_HINT_CODES`);
    `on_step(what)` is told what is computed next."""
    if rules.size > EXACT_HINT_CODES:
        raise LimitExceededError(
            f"the entropy float study walks every decision of the exact entropy tree, which "
            f"takes too long for {rules_name(rules)} ({rules.size:,} codes; at most "
            f"{EXACT_HINT_CODES:,} here).")
    from .study import entropy_study

    return entropy_study(rules, on_step=on_step).to_dict()


def opening_example(rules: Rules, table: dict[str, Any]) -> dict[str, Any] | None:
    """Return, for a game in `OPENING_EXAMPLES`, a strategy's total from an opening that is
    not its class's first code, next to that first code's total and the lowest total
    among the first codes of the table; None for other games."""
    example = OPENING_EXAMPLES.get(rules.key)
    if example is None or example[0] not in table["strategies"]:
        return None
    from .classes import secret_classes
    from .space import get_space
    from .strategies import evaluate, find_strategy

    name, code = example
    space = get_space(rules)
    classes = secret_classes(rules)
    label = classes.labels[int(classes.of[space.index(code)])]
    row = next(r for r in table["rows"] if r["class"] == label)
    (tree,) = evaluate([find_strategy(name, first=code)], space)
    lowest = min(table["rows"], key=lambda r: r["totals"][name])
    return {"strategy": name, "first_guess": code, "class": label, "total": tree.total,
            "class_first": row["first_guess"], "class_first_total": row["totals"][name],
            "lowest_first": lowest["first_guess"], "lowest_first_total": lowest["totals"][name]}


def classes_text(rules: Rules) -> str:
    """Return what makes two first guesses one class for `rules`."""
    from .classes import positions_permute

    if positions_permute(rules):
        return "codes alike once colours are renamed and pegs reordered"
    return ("codes alike once colours are renamed, each peg kept in its place: with per-peg "
            "answers and repeated colours, reordering the pegs can change an answer")


# ----------------------------------------------------------------------------- captions
def histogram_caption(row: dict[str, Any], exact: bool) -> str:
    """Return the caption of one strategy's histogram."""
    games = row.get("games")
    over = "every secret" if exact else f"{games:,} sampled secrets (approximate)"
    first = f", first guess {row['first_guess']}" if row.get("first_guess") else ""
    return (f"{LABELS.get(row['strategy'], row['strategy'])}: {row['total']:,} guesses in all "
            f"over {over}, mean {row['mean']:.4f}, worst {row['worst']}{first}; found on guess "
            f"1, 2, ...: {' / '.join(f'{n:,}' for n in row['histogram'])}.")


def openings_caption(table: dict[str, Any]) -> str:
    """Return the caption of the first-guess table."""
    parts = []
    best = table.get("best")
    if best:
        parts.append(f"The best opening is {best['class']} ({best['first_guess']}): "
                     f"{best['total']:,} guesses in all under optimal play.")
    each = []
    for name in table["strategies"]:
        top = min(table["rows"], key=lambda r: r["totals"][name])
        each.append(f"{name} {top['first_guess']} {top['totals'][name]:,}")
    parts.append("Each class is played from its first code; each strategy's lowest total "
                 "among these first codes (other codes of a class can do better for a "
                 "strategy that breaks ties by code order): " + ", ".join(each) + ".")
    if table.get("note"):
        parts.append(table["note"][0].upper() + table["note"][1:])
    return " ".join(parts)


def openings_paragraph(rules: Rules, table: dict[str, Any]) -> str:
    """Return the paragraph before the first-guess table: what a class is for `rules`,
    that each class is played from its first code only, and (for a game in
    `OPENING_EXAMPLES`) a strategy that does better from another code of a class."""
    text = (f"Every class of first guesses ({classes_text(rules)}), played from its first "
            "code only: each strategy's total when forced to open with that code, and the "
            "optimal total once it is played. The optimal total is the same for every code "
            "of a class; a one-step strategy's need not be, as it breaks ties by code order, "
            "so another code of a class can do better than its first code: the lowest total "
            "of a column (in bold) is the lowest among the first codes only.")
    example = table.get("example")
    if example:
        text += (f" For example, {example['strategy']} takes {example['total']:,} guesses "
                 f"opening with {example['first_guess']} but {example['class_first_total']:,} "
                 f"with {example['class_first']}, the first code of its class "
                 f"{example['class']}")
        if example["total"] < example["lowest_first_total"]:
            text += (f", fewer than any first code here (the lowest, "
                     f"{example['lowest_first']}, takes {example['lowest_first_total']:,})")
        text += "."
    return text


def ledger_caption(cells: list[dict[str, Any]], rules: Rules) -> str:
    """Return the caption of the ledger heat map."""
    by = {(c["pegs"], c["colors"]): c for c in cells}
    text = (f"Optimal total guesses over every secret for {len(cells)} games MM(pegs, colours) "
            "(seed 000's ledger, as published); the colour is the mean per secret.")
    for p, c in ((4, 6), (4, 7)):
        if (p, c) in by:
            text += f" MM({p},{c}) = {by[p, c]['total']:,} (mean {by[p, c]['mean']:.4f})."
    mine = _ledger_cell(rules, by)
    if mine is not None and (rules.pegs, rules.colors) not in ((4, 6), (4, 7)):
        text += (f" This report's game MM({rules.pegs},{rules.colors}) = {mine['total']:,} "
                 f"(mean {mine['mean']:.4f}), outlined.")
    elif mine is not None:
        text += f" This report's game, MM({rules.pegs},{rules.colors}), is outlined."
    return text


def _ledger_cell(rules: Rules, by: dict[tuple[int, int], dict[str, Any]]
                 ) -> dict[str, Any] | None:
    plain = rules.repeats and rules.feedback == "blackwhite" and not rules.blanks
    return by.get((rules.pegs, rules.colors)) if plain else None


def study_caption(study: dict[str, Any]) -> str:
    """Return the caption of the entropy float study."""
    from .study import SPELLING_TEXT

    spellings = "; ".join(
        f"{SPELLING_TEXT[s['spelling']]}: {s['total']:,} ({s['differing']:,} of "
        f"{study['decisions']:,} decisions differ)" for s in study["spellings"])
    return (f"{study['tied']:,} of {study['decisions']:,} decisions of the exact entropy tree "
            f"are tied ({study['tied_across_sizes']:,} between different part sizes); exact "
            f"total {study['exact_total']:,}. Written as a float sum: {spellings}.")


# ----------------------------------------------------------------------------- figures
def _figure_class() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure


def _save(report: Report, fig: Any, name: str) -> None:
    fig.savefig(report.out / name, dpi=DPI, metadata={"Software": None})
    report.figures.append(name)


def write_figures(report: Report) -> None:
    """Draw every figure the numbers allow into the report's folder."""
    from matplotlib.ticker import MaxNLocator

    rules = report.rules
    game = rules_name(rules)
    figure = _figure_class()
    strategies = report.numbers["strategies"]
    rows = strategies["rows"]
    widest = max(len(r["histogram"]) for r in rows)
    tallest = max(max(r["histogram"]) for r in rows)
    for row in rows:
        fig = figure(figsize=(4.6, 2.7), layout="constrained")
        ax = fig.add_subplot()
        xs = list(range(1, len(row["histogram"]) + 1))
        colour = "#3457d5" if row["strategy"] == "optimal" else "#6f89e3"
        bars = ax.bar(xs, row["histogram"], color=colour, width=0.7)
        ax.bar_label(bars, labels=[f"{n:,}" if n else "" for n in row["histogram"]],
                     fontsize=7, padding=1)
        ax.set_xlim(0.4, widest + 0.6)
        ax.set_ylim(0, tallest * 1.15)
        ax.set_xticks(range(1, widest + 1))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # (counts of secrets)
        ax.set_xlabel("guesses needed")
        ax.set_ylabel("secrets")
        ax.set_title(f"{game}, {LABELS.get(row['strategy'], row['strategy'])}:\n"
                     f"total {row['total']:,}, mean {row['mean']:.4f}", fontsize=9)
        ax.spines[["top", "right"]].set_visible(False)
        _save(report, fig, f"hist-{row['strategy']}.png")
    table = report.numbers.get("openings")
    if table is not None:
        _openings_figure(report, figure, table)
    _ledger_figure(report, figure, report.numbers["ledger"], rules)
    study = report.numbers.get("entropy_study")
    if study is not None:
        _study_figure(report, figure, study)


def _openings_figure(report: Report, figure: Any, table: dict[str, Any]) -> Any:
    """Draw the first-guess table as a heat map into openings.png; return the figure."""
    import numpy as np

    columns = [*table["strategies"], "optimal"]
    rows = table["rows"]
    values = np.array([[np.nan if (v := (r["optimal"] if c == "optimal" else r["totals"][c]))
                        is None else v for c in columns] for r in rows], dtype=float)
    # (at least `OPENINGS_MIN_HEIGHT` inches: with one or two classes the y label, centred
    # on the axes, would be cut off at both ends)
    fig = figure(figsize=(1.05 * len(columns) + 1.6,
                          max(0.42 * len(rows) + 1.3, OPENINGS_MIN_HEIGHT)),
                 layout="constrained")
    ax = fig.add_subplot()
    means = np.ma.masked_invalid(values / table["secrets"])
    image = ax.imshow(means, cmap="viridis_r", aspect="auto")
    fig.colorbar(image, ax=ax, label="mean guesses", shrink=0.9)
    finite = means.compressed()
    middle = (finite.min() + finite.max()) / 2 if finite.size else 0
    for i in range(len(rows)):
        for j in range(len(columns)):
            v = values[i, j]
            text = "—" if np.isnan(v) else f"{int(v):,}"
            dark = not np.isnan(v) and means[i, j] > middle
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="white" if dark else "black")
    ax.set_xticks(range(len(columns)), columns, fontsize=8)
    ax.set_xlabel("strategy")
    ax.set_yticks(range(len(rows)), [f"{r['class']} ({r['first_guess']})" for r in rows],
                  fontsize=8)
    ax.set_ylabel("first guess: its class\n(the code played)")
    ax.set_title(f"{rules_name(report.rules)}: total guesses when forced to open with ...",
                 fontsize=9)
    _save(report, fig, "openings.png")
    return fig


def _ledger_figure(report: Report, figure: Any, cells: list[dict[str, Any]],
                   rules: Rules) -> None:
    import numpy as np
    from matplotlib.patches import Rectangle

    pegs = sorted({c["pegs"] for c in cells})
    colors = list(range(min(c["colors"] for c in cells), max(c["colors"] for c in cells) + 1))
    grid = np.full((len(pegs), len(colors)), np.nan)
    for c in cells:
        grid[pegs.index(c["pegs"]), colors.index(c["colors"])] = c["mean"]
    fig = figure(figsize=(0.62 * len(colors) + 2.2, 0.5 * len(pegs) + 1.4), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(np.ma.masked_invalid(grid), cmap="magma_r", aspect="auto")
    fig.colorbar(image, ax=ax, label="mean guesses per secret", shrink=0.9)
    middle = np.nanmin(grid) + 0.55 * (np.nanmax(grid) - np.nanmin(grid))
    for c in cells:
        i, j = pegs.index(c["pegs"]), colors.index(c["colors"])
        ax.text(j, i, f"{c['total']:,}", ha="center", va="center", fontsize=6.5,
                color="white" if c["mean"] > middle else "black")
    mine = _ledger_cell(rules, {(c["pegs"], c["colors"]): c for c in cells})
    if mine is not None:
        i, j = pegs.index(mine["pegs"]), colors.index(mine["colors"])
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="#00b4d8",
                               linewidth=2.2))
    ax.set_xticks(range(len(colors)), [str(c) for c in colors], fontsize=8)
    ax.set_yticks(range(len(pegs)), [str(p) for p in pegs], fontsize=8)
    ax.set_xlabel("colours")
    ax.set_ylabel("pegs")
    ax.set_title("optimal total over every secret (the ledger)", fontsize=9)
    _save(report, fig, "ledger.png")


def _study_figure(report: Report, figure: Any, study: dict[str, Any]) -> None:
    from matplotlib.ticker import MaxNLocator, StrMethodFormatter

    from .study import SPELLING_TEXT

    names = ["exact", *[s["spelling"] for s in study["spellings"]]]
    totals = [study["exact_total"], *[s["total"] for s in study["spellings"]]]
    differ = [None, *[s["differing"] for s in study["spellings"]]]
    fig = figure(figsize=(6.4, 0.45 * len(names) + 1.2), layout="constrained")
    ax = fig.add_subplot()
    ys = list(range(len(names)))[::-1]
    colours = ["#2e7d32" if t == study["exact_total"] else "#d9534f" for t in totals]
    low, high = min(totals), max(totals)
    pad = max(2, (high - low) * 0.6)
    ax.hlines(ys, low - pad, totals, color="#dfe3ea", linewidth=1)
    ax.scatter(totals, ys, color=colours, s=60, zorder=3)
    ax.set_xlim(low - pad, high + pad * 2.2)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    for y, t, d in zip(ys, totals, differ, strict=True):
        note = "" if d is None else f"  ({d:,} of {study['decisions']:,} decisions differ)"
        ax.text(t, y, f"   {t:,}{note}", va="center", fontsize=8)
    ax.set_yticks(ys, [SPELLING_TEXT[n] for n in names], fontsize=8)
    ax.set_xlabel("total guesses over every secret")
    ax.set_title(f"{rules_name(report.rules)}:\nthe entropy rule, compared exactly and as "
                 "float sums", fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)
    _save(report, fig, "entropy-study.png")


# ----------------------------------------------------------------------------- HTML
_STYLE = """
body { font-family: system-ui, sans-serif; color: #1d2330; margin: 24px auto; max-width: 1100px;
       padding: 0 16px; line-height: 1.45; }
h1 { margin-bottom: 4px; } h2 { margin-top: 32px; border-bottom: 1px solid #dfe3ea; }
.meta, figcaption, .note { color: #5b6372; font-size: 0.9rem; }
.note { background: #fff8e1; padding: 6px 10px; border-radius: 6px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); gap: 16px; }
figure { margin: 12px 0; } figure img { max-width: 100%; height: auto; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 8px 0; }
th, td { padding: 3px 9px; border-bottom: 1px solid #eef0f4; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.best { font-weight: 700; color: #1d6b30; }
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _figure_html(name: str, alt: str, caption: str, **data: object) -> str:
    attrs = "".join(f' data-{k.replace("_", "-")}="{_e(v)}"' for k, v in data.items())
    return (f'<figure id="fig-{_e(name.removesuffix(".png"))}"{attrs}>'
            f'<img src="{_e(name)}" alt="{_e(alt)}"><figcaption>{_e(caption)}</figcaption>'
            "</figure>")


def render_html(report: Report) -> str:
    """Return the report's index.html."""
    n = report.numbers
    rules = n["rules"]
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>keypeg report: {_e(rules['name'])}</title><style>{_STYLE}</style></head>",
           "<body>", f"<h1>keypeg report: {_e(rules['name'])}</h1>",
           f'<p class="meta">{_e(rules["describe"])}; {rules["codes"]:,} codes. Made by '
           f"<code>keypeg report</code> in {report.seconds:.1f} s; every number below is "
           "in numbers.json.</p>"]
    out += [f'<p class="note">{_e(note[0].upper() + note[1:])}</p>' for note in report.notes]
    # strategies
    st = n["strategies"]
    out.append('<h2 id="strategies">Strategies: guesses needed</h2>')
    how = ("against every secret (exact)" if st["exact"] else
           "against sampled secrets (approximate)")
    out.append(f"<p>Each strategy played {how}: the histogram counts the secrets found on "
               "guess 1, 2, 3, ...</p>")
    if st.get("note"):
        out.append(f'<p class="note">{_e(st["note"])}</p>')
    out.append("<table><tr><th>strategy</th><th>first guess</th><th class=num>total</th>"
               "<th class=num>mean</th><th class=num>worst</th></tr>")
    for r in st["rows"]:
        label = LABELS.get(r["strategy"], r["strategy"])
        out.append(f'<tr data-strategy="{_e(r["strategy"])}"><td>{_e(label)}'
                   f'</td><td>{_e(r.get("first_guess") or "—")}</td>'
                   f'<td class=num>{r["total"]:,}</td><td class=num>{r["mean"]:.4f}</td>'
                   f'<td class=num>{r["worst"]}</td></tr>')
    out.append('</table><div class="grid">')
    for r in st["rows"]:
        out.append(_figure_html(f"hist-{r['strategy']}.png",
                                f"histogram of {r['strategy']}", histogram_caption(r, st["exact"]),
                                strategy=r["strategy"], total=r["total"], worst=r["worst"]))
    out.append("</div>")
    # first guesses
    out.append('<h2 id="openings">First guesses</h2>')
    table = n.get("openings")
    if table is None:
        out.append('<p class="note">Not made for these rules (see the note above).</p>')
    else:
        out.append(f"<p>{_e(openings_paragraph(report.rules, table))}</p>")
        best = table.get("best") or {}
        out.append(_figure_html("openings.png", "first-guess table as a heat map",
                                openings_caption(table), best_class=best.get("class", ""),
                                best_total=best.get("total", "")))
        out.append(_openings_table(table))
    # ledger
    out.append('<h2 id="ledger">The ledger</h2>')
    out.append(_figure_html("ledger.png", "ledger of optimal totals as a heat map",
                            ledger_caption(n["ledger"], report.rules),
                            cells=len(n["ledger"])))
    cells = n.get("new_cells") or []
    if cells:
        out.append('<h3 id="new-cells">Beyond the ledger: optima keypeg computed</h3>')
        out.append(f"<p>{len(cells)} games the ledger does not hold, each optimum proven "
                   "twice (its tree replayed over every secret, and a second search with "
                   "other options) and shipped with its tree (<code>keypeg ledger "
                   "--extended</code> replays them). W: the fewest guesses any strategy "
                   "needs in the worst case, and the total at that; MM*: playing possible "
                   "codes only.</p>")
        out.append(_new_cells_table(cells))
    # entropy study
    out.append('<h2 id="entropy">The entropy float study</h2>')
    study = n.get("entropy_study")
    if study is None:
        out.append('<p class="note">Not made for these rules (see the note above).</p>')
    else:
        out.append("<p>Maximising entropy is minimising the integer product of n<sup>n</sup> "
                   "over the parts; compared exactly, ties are broken by the stated rule. "
                   "Written as a float sum, rounding may break them instead.</p>")
        out.append(_figure_html("entropy-study.png", "entropy float study",
                                study_caption(study), exact_total=study["exact_total"],
                                tied=study["tied"], decisions=study["decisions"]))
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _new_cells_table(cells: list[dict[str, Any]]) -> str:
    def variant(v: dict[str, Any] | None, text: str) -> str:
        if v is not None and "tried_seconds" in v:
            return f"not within {v['tried_seconds']:,.0f} s"
        return "—" if v is None else text.format(**v)

    out = ['<table id="new-cells-table"><tr><th>game</th><th class=num>codes</th>'
           "<th class=num>optimal total</th><th class=num>mean</th><th class=num>worst</th>"
           "<th>first guess</th><th class=num>W: total</th><th class=num>MM* (worst)</th>"
           "<th>published</th></tr>"]
    for c in cells:
        published = ("—" if c["published"] is None else
                     f"{c['published']:,} ({'agrees' if c['agrees'] else 'DIFFERS'})")
        out.append(
            f'<tr data-label="{_e(c["label"])}" data-total="{c["total"]}">'
            f'<td>{_e(c["label"])}</td><td class=num>{c["codes"]:,}</td>'
            f'<td class=num>{c["total"]:,}</td><td class=num>{c["mean"]:.4f}</td>'
            f'<td class=num>{c["worst"]}</td><td>{_e(c["first_guess"])}</td>'
            f'<td class=num>{variant(c["worst_first"], "{worst}: {total:,}")}</td>'
            f'<td class=num>{variant(c["possible_only"], "{total:,} ({worst})")}</td>'
            f"<td>{published}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def _openings_table(table: dict[str, Any]) -> str:
    columns = [*table["strategies"], "optimal"]
    rows = table["rows"]

    def value(r: dict[str, Any], c: str) -> int | None:
        return r["optimal"] if c == "optimal" else r["totals"][c]

    best = {c: min((v for r in rows if (v := value(r, c)) is not None), default=None)
            for c in columns}
    out = ['<table id="openings-table"><tr><th>opening</th><th>first guess</th>'
           '<th class=num>codes</th>'
           + "".join(f"<th class=num>{_e(c)}</th>" for c in columns) + "</tr>"]
    for r in rows:
        cells = []
        for c in columns:
            v = value(r, c)
            cls = "num best" if v is not None and v == best[c] else "num"
            cells.append(f'<td class="{cls}" data-strategy="{_e(c)}">'
                         f'{"—" if v is None else f"{v:,}"}</td>')
        out.append(f'<tr data-class="{_e(r["class"])}" data-first-guess="{_e(r["first_guess"])}">'
                   f'<td>{_e(r["class"])}</td><td>{_e(r["first_guess"])}</td>'
                   f'<td class=num>{r["codes"]:,}</td>' + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)
