"""Compute keypeg's headline numbers into docs/stats.json and render the README from them.

    python scripts/stats.py compute [SECTION ...]   # recompute sections (all by default)
    python scripts/stats.py readme                  # rewrite the README's generated blocks
    python scripts/stats.py check                   # exit 1 if the README is out of date

Every number in the README between ``<!-- stats:NAME -->`` and ``<!-- /stats:NAME -->``
comes from this file; nothing there is typed by hand.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STATS = ROOT / "docs" / "stats.json"
README = ROOT / "README.md"

from keypeg.errors import NoStrategyError  # noqa: E402
from keypeg.rules import Rules, find_rules, rules_name  # noqa: E402
from keypeg.space import get_space  # noqa: E402
from keypeg.strategies import TABLE_STRATEGIES, evaluate, find_strategy  # noqa: E402
from keypeg.study import entropy_study  # noqa: E402

MM47 = Rules(pegs=4, colors=7)


# --------------------------------------------------------------------------- compute
def _rows(rules: Rules, **options: Any) -> list[dict[str, Any]]:
    trees = evaluate([find_strategy(n, **options) for n in TABLE_STRATEGIES], rules)
    return [{**t.summary(), "strategy": n} for n, t in zip(TABLE_STRATEGIES, trees, strict=True)]


def compute_evaluation() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, rules in (("classic", find_rules("classic")), ("mm47", MM47)):
        out[key] = {
            "rules": rules_name(rules),
            "all_probes": _rows(rules),
            "possible_only": _rows(rules, possible_only=True),
            "tie_last_totals": [r["total"] for r in _rows(rules, tie="last")],
        }
    out["classic"]["consistent_forced_first"] = {
        first: find_strategy("consistent", first=first).tree(find_rules("classic")).summary()
        for first in ("1122", "3456")
    }
    return out


def compute_consistent_openings() -> dict[str, Any]:
    """Which forced opening and tie rule give the consistent strategy Ville's 12,265."""
    space = get_space(MM47)
    hits = []
    for i in range(space.size):
        for tie in ("first", "last"):
            tree = find_strategy("consistent", first=space.text(i), tie=tie).tree(MM47)
            if tree.total == 12265:
                hits.append({"first_guess": space.text(i), "tie": tie, **tree.summary()})
    best = min(
        (find_strategy("consistent", first=space.text(i)).tree(MM47).total, space.text(i))
        for i in range(space.size)
    )
    return {"rules": rules_name(MM47), "target": 12265, "hits": hits,
            "best_opening_first_tie": {"first_guess": best[1], "total": best[0]}}


def compute_entropy_study() -> dict[str, Any]:
    return {key: entropy_study(rules).to_dict()
            for key, rules in (("classic", find_rules("classic")), ("mm47", MM47))}


def compute_mm58() -> dict[str, Any]:
    rules = find_rules("super")
    names = ["maxsize", "expsize", "entropy", "parts"]
    started = time.perf_counter()
    rows = _rows(rules)
    seconds = time.perf_counter() - started
    # every first-guess class (the lexically first code of each colour pattern)
    space = get_space(rules)
    openings = ["11111", "11112", "11122", "11123", "11223", "11234", "12345"]
    study: dict[str, dict[str, float]] = {}
    strategies = [find_strategy(n, first=f) for n in names for f in openings]
    trees = evaluate(strategies, space)
    for s, tree in zip(strategies, trees, strict=True):
        study.setdefault(s.name, {})[str(s.first)] = round(tree.mean, 4)
    possible = _rows(rules, possible_only=True)
    return {"rules": rules_name(rules), "rows": rows, "seconds": round(seconds, 1),
            "first_guess_study": study, "possible_only": possible}


def compute_optimal() -> dict[str, Any]:
    from keypeg.solver import solve_optimal

    classic = Rules(pegs=4, colors=6)
    out: dict[str, Any] = {"classic": solve_optimal(classic).summary()}
    out["classic"]["max5_total"] = solve_optimal(classic, max_guesses=5).total
    after = {}
    for first in ("1111", "1112", "1122", "1123", "1234"):
        row = solve_optimal(classic, first=first).summary()
        try:
            row["max5_total"] = solve_optimal(classic, first=first, max_guesses=5).total
        except NoStrategyError:  # no five-guess tree exists
            row["max5_total"] = None
        after[first] = row
    out["classic"]["after_first_guess"] = after
    out["mm47"] = solve_optimal(MM47).summary()
    return out


def compute_ledger() -> dict[str, Any]:
    from keypeg.solver.ledger import run_ledger

    return {"cells": run_ledger(max_seconds=600)}


def _grid(**options: Any) -> list[dict[str, Any]]:
    """Solve every cell of the ledger grid with `options`, 10 minutes at most per cell."""
    from keypeg.errors import LimitExceededError
    from keypeg.solver import solve_optimal
    from keypeg.solver.ledger import LEDGER_CELLS

    rows = []
    for pegs, colors, _ in LEDGER_CELLS:
        started = time.perf_counter()
        try:
            r = solve_optimal(Rules(pegs=pegs, colors=colors), time_limit=600, **options)
            row = {"pegs": pegs, "colors": colors, "total": r.total, "worst": r.worst}
        except LimitExceededError:
            row = {"pegs": pegs, "colors": colors, "total": None, "worst": None}
        row["seconds"] = round(time.perf_counter() - started, 2)
        rows.append(row)
        print(f"  {row}", flush=True)
    return rows


def compute_worst_grid() -> dict[str, Any]:
    return {"cells": _grid(objective="worst")}


def compute_possible_grid() -> dict[str, Any]:
    return {"cells": _grid(possible_only=True)}


def compute_bulls() -> dict[str, Any]:
    from keypeg.solver import solve_optimal

    started = time.perf_counter()
    r = solve_optimal(find_rules("bulls-and-cows"))
    out = {**r.summary(), "seconds": round(time.perf_counter() - started, 1)}
    return out


#: Secrets per game in the noise study (the same secrets and misreports for every player).
NOISE_GAMES = {"classic": 2000, "codebreaker-1": 500}


def compute_noise_study() -> dict[str, Any]:
    from keypeg.noise_study import noise_study

    return {name: noise_study(find_rules(name), games) for name, games in NOISE_GAMES.items()}


def compute_mm33() -> dict[str, Any]:
    """Seed 003's 3x3 benchmark: every strategy on MM(3,3), exactly (27 secrets)."""
    from keypeg.bayes import BeliefStrategy

    rules = Rules(pegs=3, colors=3)
    names = ["consistent", "random", "maxsize", "expsize", "entropy", "parts"]
    strategies = [find_strategy(n) for n in names] + [BeliefStrategy(), find_strategy(
        "optimal", time_limit=None, max_candidates=None)]
    rows = []
    for name, tree in zip([*names, "information", "optimal"],
                          evaluate(strategies, rules), strict=True):
        rows.append({**tree.summary(), "strategy": name})
    return {"rules": rules_name(rules), "secrets": 27, "rows": rows}


#: Seconds allowed per game value (column generation: a weighted optimum per round).
VALUE_SECONDS = 900
VALUES_FILE = ROOT / "src" / "keypeg" / "data" / "values.json"


def compute_values() -> dict[str, Any]:
    """The exact game value (seed 004's two-player game) of every ledger cell and of the
    small presets, as far as each is solved in `VALUE_SECONDS`; the certified ones are
    shipped in src/keypeg/data/values.json (written after each cell)."""
    from keypeg.errors import LimitExceededError
    from keypeg.solver.ledger import LEDGER_CELLS
    from keypeg.value import game_value

    games = [Rules(pegs=p, colors=c) for p, c, _ in LEDGER_CELLS]
    games += [find_rules("bulls-and-cows"), find_rules("codebreaker-1")]
    rows: list[dict[str, Any]] = []
    shipped: dict[str, Any] = {}
    for rules in sorted(games, key=lambda r: r.size):
        started = time.perf_counter()
        try:
            row = game_value(rules, time_limit=VALUE_SECONDS).to_dict()
        except LimitExceededError:
            row = {"rules": rules_name(rules), "value": None, "certified": False,
                   "seconds": round(time.perf_counter() - started, 1)}
        row.update(pegs=rules.pegs, colors=rules.colors, key=rules.key,
                   name=rules.name or rules_name(rules))
        rows.append(row)
        print(f"  {row['rules']}: {row['value']} in {row['seconds']} s", flush=True)
        if row["certified"]:
            shipped[rules.key] = {k: v for k, v in row.items()
                                  if k not in ("pegs", "colors", "key", "name")}
            VALUES_FILE.write_text(json.dumps(shipped, indent=1) + "\n")
    return {"cells": rows, "seconds_allowed": VALUE_SECONDS}


#: Secrets per sampled evaluation of the genetic algorithm, by game.
GENETIC_SAMPLES = {"classic": 1000, "super": 500, "MM(6,9)": 300, "MM(8,8)": 200,
                   "codebreaker-4": 300}


def compute_genetic() -> dict[str, Any]:
    """The genetic algorithm (seed 0): exactly over every secret of classic, and over
    sampled secrets (95 % intervals) on classic (to check the interval covers the exact
    mean), MM(5,8), MM(6,9), MM(8,8) and codebreaker-4..6 (one code space)."""
    from keypeg.sampling import sampled_evaluation

    ga = find_strategy("genetic", seed=0)
    started = time.perf_counter()
    exact = {**ga.tree(find_rules("classic")).summary(),
             "seconds": round(time.perf_counter() - started, 1)}
    rows = []
    for name, n in GENETIC_SAMPLES.items():
        rules = (find_rules(name) if not name.startswith("MM(") else
                 Rules(pegs=int(name[3]), colors=int(name[5])))
        started = time.perf_counter()
        row = sampled_evaluation(rules, ga, n, seed=1)
        row["seconds"] = round(time.perf_counter() - started, 1)
        row["per_decision_ms"] = round(1000 * row["seconds"] / row["total"], 1)
        if name == "codebreaker-4":  # the games lost in the rows of levels 4, 5 and 6
            row["beyond_rows"] = {str(r): sum(row["histogram"][r:]) for r in (8, 7, 6)}
        elif rules.max_guesses:
            row["beyond_rows"] = sum(row["histogram"][rules.max_guesses:])
        rows.append({**row, "game": name})
        print(f"  {name}: mean {row['mean']} {row['ci95']} in {row['seconds']} s", flush=True)
    return {"exact_classic": exact, "sampled": rows}


def compute_codebreaker_big() -> dict[str, Any]:
    """The five one-step strategies over all 100,000 secrets of Codebreaker levels 4-6
    (one code space; the levels differ only in rows), exactly: walked part by part
    without the full table (`onestep.split_tree`)."""
    rules = find_rules("codebreaker-4")
    rows = []
    for name in TABLE_STRATEGIES:
        started = time.perf_counter()
        (tree,) = evaluate([find_strategy(name)], rules)
        row = {**tree.summary(), "strategy": name,
               "seconds": round(time.perf_counter() - started, 1),
               "beyond_rows": {str(r): sum(tree.histogram[r:]) for r in (8, 7, 6)}}
        rows.append(row)
        print(f"  {name}: {row['total']} in {row['seconds']} s", flush=True)
    return {"rules": rules_name(rules), "secrets": rules.size, "rows": rows}


def compute_codebreaker_big_possible() -> dict[str, Any]:
    """The same with possible codes only (MM*-style play: every guess could be the
    secret); consistent plays possible codes anyway."""
    rules = find_rules("codebreaker-4")
    rows = []
    for name in TABLE_STRATEGIES[1:]:
        started = time.perf_counter()
        (tree,) = evaluate([find_strategy(name, possible_only=True)], rules)
        row = {**tree.summary(), "strategy": f"{name} (possible only)",
               "seconds": round(time.perf_counter() - started, 1),
               "beyond_rows": {str(r): sum(tree.histogram[r:]) for r in (8, 7, 6)}}
        rows.append(row)
        print(f"  {name} possible only: {row['total']} in {row['seconds']} s", flush=True)
    return {"rules": rules_name(rules), "secrets": rules.size, "rows": rows}


def render_codebreaker_big(stats: dict[str, Any]) -> str:
    sec = stats["codebreaker_big"]
    out = ["| strategy | first guess | total | mean | worst | lost in 8 / 7 / 6 rows | "
           "found on guess 1 / 2 / ... | seconds |", "|---|---|---|---|---|---|---|---|"]
    for r in sec["rows"] + stats.get("codebreaker_big_possible", {}).get("rows", []):
        lost = " / ".join(f"{r['beyond_rows'][k]:,}" for k in ("8", "7", "6"))
        out.append(f"| {r['strategy']} | {r['first_guess']} | {r['total']:,} | "
                   f"{r['mean']:.4f} | {r['worst']} | {lost} | {_hist(r['histogram'])} | "
                   f"{r['seconds']:.0f} |")
    return "\n".join(out)


SECTIONS: dict[str, Callable[[], dict[str, Any]]] = {
    "evaluation": compute_evaluation,
    "consistent_openings": compute_consistent_openings,
    "entropy_study": compute_entropy_study,
    "mm58": compute_mm58,
    "optimal": compute_optimal,
    "ledger": compute_ledger,
    "possible_grid": compute_possible_grid,
    "worst_grid": compute_worst_grid,
    "bulls": compute_bulls,
    "noise_study": compute_noise_study,
    "mm33": compute_mm33,
    "values": compute_values,
    "genetic": compute_genetic,
    "codebreaker_big": compute_codebreaker_big,
    "codebreaker_big_possible": compute_codebreaker_big_possible,
}


# --------------------------------------------------------------------------- render
def _hist(h: list[int]) -> str:
    return " / ".join(f"{n:,}" for n in h)


def render_evaluation(stats: dict[str, Any]) -> str:
    ev = stats["evaluation"]
    out = []
    for key in ("classic", "mm47"):
        sec = ev[key]
        out.append(f"**{sec['rules']}**, every code may be played (possible codes only in the "
                   "last two columns):\n")
        out.append("| strategy | first guess | total | mean | worst | found on guess "
                   "1 / 2 / 3 / ... | possible only | worst |")
        out.append("|---|---|---|---|---|---|---|---|")
        for row, po in zip(sec["all_probes"], sec["possible_only"], strict=True):
            out.append(f"| {row['strategy']} | {row['first_guess']} | {row['total']:,} | "
                       f"{row['mean']:.4f} | {row['worst']} | {_hist(row['histogram'])} | "
                       f"{po['total']:,} | {po['worst']} |")
        same = [r["total"] for r in sec["all_probes"]] == sec["tie_last_totals"]
        out.append("")
        out.append(f"Breaking ties by the last code instead of the first gives "
                   f"{'the same totals for all five' if same else 'DIFFERENT totals'} "
                   f"({', '.join(f'{t:,}' for t in sec['tie_last_totals'])}).\n")
    forced = ev["classic"]["consistent_forced_first"]
    out.append("Consistent with a forced first guess on MM(4,6): " + "; ".join(
        f"{k} gives {v['total']:,} (worst {v['worst']})" for k, v in forced.items()) + ".")
    return "\n".join(out)


def render_consistent_openings(stats: dict[str, Any]) -> str:
    sec = stats["consistent_openings"]
    hits = "; ".join(f"opening {h['first_guess']} with ties to the {h['tie']} code "
                     f"(worst {h['worst']})" for h in sec["hits"])
    best = sec["best_opening_first_tie"]
    return (f"Ville's consistent figure for {sec['rules']}, {sec['target']:,}, is not the plain "
            f"strategy (which opens 1111). Trying every forced opening with both tie rules, "
            f"exactly these give {sec['target']:,}: {hits}. The two are mirror images (colour "
            f"x to 8-x), so it is the opening 4567, like 3456 on MM(4,6), with the first "
            f"consistent code in lexical order. The best opening for this strategy is "
            f"{best['first_guess']} ({best['total']:,}).")


def render_entropy_study(stats: dict[str, Any]) -> str:
    names = {"nlog2n": "sum n*log2 n", "plog2p": "sum p*log2 p", "plnp": "sum p*ln p",
             "plog2p-float32": "sum p*log2 p (float32)"}
    out = ["| entropy computed as | MM(4,6) total | differs from exact | MM(4,7) total | "
           "differs from exact |", "|---|---|---|---|---|"]
    a, b = stats["entropy_study"]["classic"], stats["entropy_study"]["mm47"]
    out.append(f"| exact (prod n^n as an integer) | {a['exact_total']:,} | - | "
               f"{b['exact_total']:,} | - |")
    for sa, sb in zip(a["spellings"], b["spellings"], strict=True):
        out.append(f"| {names[sa['spelling']]} | {sa['total']:,} | {sa['differing']} of "
                   f"{a['decisions']} | {sb['total']:,} | {sb['differing']} of "
                   f"{b['decisions']} |")
    out.append("")
    out.append(f"Along the exact trees, {a['tied']} of {a['decisions']} decisions (MM(4,6)) "
               f"and {b['tied']} of {b['decisions']} (MM(4,7)) are exact ties; "
               f"{a['tied_across_sizes'] + b['tied_across_sizes']} of them are between "
               f"different part sizes. The float sums run over the answers in keypeg's "
               f"answer order (blacks, then whites, ascending), the order that reproduces "
               f"seed 000's table.")
    return "\n".join(out)


def render_mm58(stats: dict[str, Any]) -> str:
    from keypeg.published import published

    pub = published()["evaluate"]["mm58"]
    sec = stats["mm58"]
    out = ["| strategy | first guess | mean (keypeg) | worst | Ville | Heeffer |",
           "|---|---|---|---|---|---|"]
    for row in sec["rows"]:
        name = row["strategy"]
        out.append(f"| {name} | {row['first_guess']} | {row['mean']:.4f} | {row['worst']} | "
                   f"{pub['ville_mean'].get(name, '-')} | {pub['heeffer_mean'].get(name, '-')} |")
    out.append("")
    out.append("Mean by forced first guess (all probes, first-code ties):\n")
    openings = list(next(iter(sec["first_guess_study"].values())))
    out.append("| strategy | " + " | ".join(openings) + " |")
    out.append("|---" * (len(openings) + 1) + "|")
    for name, means in sec["first_guess_study"].items():
        out.append(f"| {name} | " + " | ".join(f"{means[o]:.4f}" for o in openings) + " |")
    po = ", ".join(f"{r['strategy']} {r['mean']:.4f}" for r in sec["possible_only"])
    out.append("")
    out.append(f"With possible codes only: {po}.")
    return "\n".join(out)


def render_optimal(stats: dict[str, Any]) -> str:
    sec = stats["optimal"]
    c = sec["classic"]
    out = [f"MM(4,6): **{c['total']:,}** guesses over all 1,296 secrets (mean {c['mean']:.4f}), "
           f"first guess {c['first_guess']}, found on guess 1 / 2 / ... : "
           f"{_hist(c['histogram'])}; at most 5 guesses: {c['max5_total']:,}. "
           f"MM(4,7): **{sec['mm47']['total']:,}** (mean {sec['mm47']['mean']:.4f}, worst "
           f"{sec['mm47']['worst']}, first guess {sec['mm47']['first_guess']}).", "",
           "| first guess | optimal total after it | mean | with at most 5 guesses |",
           "|---|---|---|---|"]
    for first, row in c["after_first_guess"].items():
        m5 = "impossible" if row["max5_total"] is None else f"{row['max5_total']:,}"
        out.append(f"| {first} | {row['total']:,} | {row['mean']:.4f} | {m5} |")
    return "\n".join(out)


def _grid_table(cells: list[dict[str, Any]], fmt: Callable[[dict[str, Any]], str]) -> str:
    colors = sorted({c["colors"] for c in cells})
    pegs = sorted({c["pegs"] for c in cells})
    by = {(c["pegs"], c["colors"]): c for c in cells}
    out = ["| pegs \\ colours | " + " | ".join(map(str, colors)) + " |",
           "|---" * (len(colors) + 1) + "|"]
    for p in pegs:
        out.append(f"| {p} | " + " | ".join(fmt(by[(p, c)]) if (p, c) in by else ""
                                            for c in colors) + " |")
    return "\n".join(out)


def render_ledger(stats: dict[str, Any]) -> str:
    cells = stats["ledger"]["cells"]
    ok = sum(c["status"] == "ok" for c in cells)
    table = _grid_table(cells, lambda c: f"{c['total']:,} ({c['worst']})"
                        if c["total"] is not None else "?")
    return (f"{table}\n\nAll {ok} of {len(cells)} cells equal the published values "
            f"(and the two-peg row Chen and Lin's closed form from 3 colours on).")


def render_new_cells(_: dict[str, Any]) -> str:
    data = json.loads((ROOT / "src" / "keypeg" / "data" / "cells.json").read_text())
    out = ["| game | codes | optimal total | mean | worst | first guess | found on guess "
           "1 / 2 / ... | seconds | W: total | MM*: total (worst) | published elsewhere |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    missed = []

    def variant(c: dict[str, Any], key: str, text: Callable[[dict[str, Any]], str]) -> str:
        got = c.get(key)
        if got is None:
            return "-"  # not tried
        if "total" not in got:
            none = (f"; no tree within {got['none_within']} guesses, two searches each"
                    if "none_within" in got else "")
            missed.append(f"{c['label']} {'W' if key == 'worst_first' else 'MM*'} "
                          f"(not within {got['seconds']:g} s{none})")
            return "?"
        return text(got)

    for c in data["cells"]:
        pub = "-" if c["published"] is None else (
            f"{c['published']:,} ({c['source']}): " + ("agrees" if c["agrees"] else
                                                      "**disagrees**"))
        w = variant(c, "worst_first", lambda v: f"{v['worst']}: {v['total']:,}")
        star = variant(c, "possible_only", lambda v: f"{v['total']:,} ({v['worst']})")
        out.append(f"| {c['label']} | {c['codes']:,} | {c['total']:,} | {c['mean']:.4f} | "
                   f"{c['worst']} | {c['first_guess']} | {_hist(c['histogram'])} | "
                   f"{c['seconds']:.1f} | {w} | {star} | {pub} |")
    if missed:
        out += ["", "W and MM* not reached yet: " + "; ".join(missed) + "."]
    if data["out_of_reach"]:
        out += ["", "Not reached yet: " + "; ".join(
            f"{c['label']} (not within {c['seconds']:g} s)" for c in data["out_of_reach"]) + "."]
    return "\n".join(out)


def render_unpublished(stats: dict[str, Any]) -> str:
    bulls = stats["bulls"]
    worst = _grid_table(stats["worst_grid"]["cells"],
                        lambda c: f"{c['worst']}: {c['total']:,}" if c["total"] else "?")
    possible = _grid_table(stats["possible_grid"]["cells"],
                           lambda c: f"{c['total']:,} ({c['worst']})" if c["total"] else "?")
    return (f"**Bulls and cows** (4 of the digits 0-9, no repeats): the optimum is "
            f"**{bulls['total']:,}** guesses over all 5,040 secrets (mean {bulls['mean']:.4f}), "
            f"worst case {bulls['worst']}, first guess {bulls['first_guess']}, found on guess "
            f"1 / 2 / ... : {_hist(bulls['histogram'])}.\n\n"
            f"**Worst case first**, W(p,c): the fewest guesses that find every secret, then "
            f"the least total under that limit (W: total):\n\n{worst}\n\n"
            f"**Possible codes only**, MM*(p,c): every guess must be a code that could still "
            f"be the secret (total, worst case in brackets):\n\n{possible}")


def render_labs(_: dict[str, Any]) -> str:
    labs = json.loads((ROOT / "src" / "keypeg" / "data" / "lab.json").read_text())
    out = ["| game | codes | " + " | ".join(TABLE_STRATEGIES) + " | optimal |",
           "|---|---|" + "---|" * (len(TABLE_STRATEGIES) + 1)]
    sampled = []
    for lab in labs.values():
        if lab["rules"] in ("classic",):
            continue
        if not lab["exact"]:
            sampled.append(lab)
            continue
        by = {r["strategy"]: r for r in lab["rows"]}
        out.append(f"| {lab['rules']} | {lab['secrets']:,} | " + " | ".join(
            f"{by[n]['total']:,} ({by[n]['mean']:.4f}, worst {by[n]['worst']})"
            if n in by else "not known" for n in (*TABLE_STRATEGIES, "optimal")) + " |")
    if sampled:
        names = [r["strategy"] for r in sampled[0]["rows"]]
        out += ["", "Sampled (approximate: every strategy against the same random secrets; "
                "mean guesses with a 95 % interval, worst case seen):", "",
                "| game | codes | secrets | " + " | ".join(names) + " |",
                "|---|---|---|" + "---|" * len(names)]
        for lab in sampled:
            by = {r["strategy"]: r for r in lab["rows"]}
            games = min(r["games"] for r in lab["rows"])
            out.append(f"| {lab['rules']} | {lab['secrets']:,} | {games} | " + " | ".join(
                f"{by[n]['mean']:.2f} [{by[n]['ci95'][0]:.2f}, {by[n]['ci95'][1]:.2f}], "
                f"worst {by[n]['worst']}" for n in names) + " |")
    return "\n".join(out)


def render_noise_study(stats: dict[str, Any]) -> str:
    out = []
    for study in stats["noise_study"].values():
        res = study["results"]
        eps_values = sorted({r["eps"] for r in res})
        players = list(dict.fromkeys(r["player"] for r in res))
        by = {(r["player"], r["eps"]): r for r in res}
        out.append(f"**{study['rules']}**, {study['games']:,} secrets (seed {study['seed']}), "
                   f"solved within {study['rows_allowed']} guesses, and the mean guesses of "
                   "the games solved:\n")
        out.append("| player | " + " | ".join(f"EPS {e:.0%}" for e in eps_values) + " |")
        out.append("|---" * (len(eps_values) + 1) + "|")
        for p in players:
            cells = [by[(p, e)] for e in eps_values]
            out.append(f"| {p} | " + " | ".join(
                f"{c['solved'] / c['games']:.1%} ({c['mean_guesses']:.2f})" for c in cells)
                + " |")
        out.append("")
    return "\n".join(out).rstrip()


def render_mm33(stats: dict[str, Any]) -> str:
    sec = stats["mm33"]
    out = ["| strategy | first guess | mean | worst |", "|---|---|---|---|"]
    for row in sec["rows"]:
        out.append(f"| {row['strategy']} | {row['first_guess']} | {row['mean']:.4f} | "
                   f"{row['worst']} |")
    return "\n".join(out)


def render_values(stats: dict[str, Any]) -> str:
    from fractions import Fraction

    cells = stats["values"]["cells"]
    grid = [c for c in cells if c["name"].startswith("MM(") or c["key"] == "p4-c4"]
    totals = {(c["pegs"], c["colors"]): c["total"] for c in stats["ledger"]["cells"]}

    def cell(c: dict[str, Any]) -> str:
        if not c["certified"]:
            return "?"
        p, q = c["value"].split("/")
        value = f"{int(p):,}" if q == "1" else f"{int(p):,}/{int(q):,}"
        return f"{value} = {c['mean']:.4f}"

    table = _grid_table(grid, cell)
    above, same = [], 0
    for c in grid:
        optimum = Fraction(totals[(c["pegs"], c["colors"])], c["colors"] ** c["pegs"])
        if Fraction(c["value"]) > optimum:
            avoided = [x["class"] for x in c["codemaker"] if Fraction(x["probability"]) == 0]
            above.append(f"MM({c['pegs']},{c['colors']}) (never {', '.join(avoided)})"
                         if avoided else f"MM({c['pegs']},{c['colors']})")
        else:
            same += 1
    others = [c for c in cells if c not in grid]
    lines = [f"**{c['name']}**: {cell(c)} ({len(c['codemaker'])} class; found in "
             f"{c['seconds']:.0f} s)" for c in others]
    slowest = max(grid, key=lambda c: c["seconds"])
    return (f"{table}\n\nEvery value is certified: the codemaker's mixture holds every "
            f"codebreaker to it and the codebreaker's mixture of symmetrised trees never needs "
            f"more, in exact fractions. In {same} cells the value is the plain optimum's mean "
            f"(the uniform codemaker is already optimal); in {len(above)} the codemaker does "
            f"better by weighting the classes unevenly (the classes it never picks in "
            f"brackets): {', '.join(above)}. The slowest cell, "
            f"{slowest['rules']}, took {slowest['seconds']:.0f} s "
            f"({slowest['rounds']} rounds of column generation).\n\n"
            + "; ".join(lines) + ": with every code a relabelling of every other, the value "
            "is the optimum's mean.")


def render_genetic(stats: dict[str, Any]) -> str:
    sec = stats["genetic"]
    exact = sec["exact_classic"]
    onestep = {"classic": stats["evaluation"]["classic"]["all_probes"],
               "super": stats["mm58"]["rows"],
               "codebreaker-4": stats.get("codebreaker_big", {}).get("rows", []),
               "MM(6,9)": big_walks(find_rules("mm-6-9"))}
    out = ["| game | secrets | genetic: mean | 95% interval | worst seen | exact one-step "
           "means (all secrets) | per decision |", "|---|---|---|---|---|---|---|"]
    out.append(f"| classic | all 1,296 (exact) | {exact['mean']:.4f} | - | {exact['worst']} | "
               + ", ".join(f"{r['strategy']} {r['mean']:.4f}" for r in onestep["classic"]
                           if r["strategy"] != "consistent") + " | - |")
    for r in sec["sampled"]:
        lo, hi = r["ci95"]
        known = ", ".join(f"{x['strategy']} {x['mean']:.4f}" for x in onestep.get(r["game"], [])
                          if x["strategy"] != "consistent") or "out of reach"
        game = "codebreaker-4..6" if r["game"] == "codebreaker-4" else r["game"]
        out.append(f"| {game} | {r['secrets']:,} drawn | {r['mean']:.4f} | {lo:.4f} to "
                   f"{hi:.4f} | {r['worst']} | {known} | {r['per_decision_ms']:.0f} ms |")
    cb = next(r for r in sec["sampled"] if r["game"] == "codebreaker-4")
    fails = cb["beyond_rows"]
    classic = next(r for r in sec["sampled"] if r["game"] == "classic")
    inside = classic["ci95"][0] <= exact["mean"] <= classic["ci95"][1]
    mm58 = next(r for r in sec["sampled"] if r["game"] == "super")
    mm69 = next((r for r in sec["sampled"] if r["game"] == "MM(6,9)"), None)
    on_mm69 = (f"; on MM(6,9) {_compare(mm69, onestep['MM(6,9)'])}"
               if mm69 is not None and onestep["MM(6,9)"] else "")
    return ("\n".join(out) + f"\n\nThe sampled classic interval "
            f"{'contains' if inside else 'MISSES'} the exact mean {exact['mean']:.4f}. "
            f"In Codebreaker's 8, 7 and 6 rows (levels 4, 5, 6) the genetic algorithm lost "
            f"{fails['8']}, {fails['7']} and {fails['6']} of the {cb['secrets']} sampled games. "
            f"Against the exact one-step strategies: on classic (exact) it beats "
            f"{_names(r for r in onestep['classic'] if r['mean'] > exact['mean'])} and loses "
            f"to {_names(r for r in onestep['classic'] if r['mean'] < exact['mean'])}; on "
            f"MM(5,8) {_compare(mm58, onestep['super'])}; on Codebreaker 4-6 "
            f"{_compare(cb, onestep['codebreaker-4'])}{on_mm69}. "
            f"It scores only the codes it found consistent (at most 60), not every probe; its "
            f"worth is that it needs no code space at all, so it plays where nothing else can.")


def render_mm69_walks(stats: dict[str, Any]) -> str:
    """MM(6,9)'s one-step strategies walked exactly (`scripts/big_walks.py`), as they
    finish, and those still to walk."""
    rows = big_walks(find_rules("mm-6-9"))
    out = ["| strategy | first guess | total | mean | worst | found on guess 1 / 2 / ... | "
           "seconds (runs) |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['strategy']} | {r['first_guess']} | {r['total']:,} | "
                   f"{r['mean']:.4f} | {r['worst']} | {_hist(r['histogram'])} | "
                   f"{r['seconds']:,.0f} ({r['runs']}) |")
    done = {r["strategy"] for r in rows}
    left = [n for n in TABLE_STRATEGIES if n not in done]
    return "\n".join(out) + (f"\n\nStill to walk: {', '.join(left)}." if left else "")


def big_walks(rules: Rules) -> list[dict[str, Any]]:
    """The one-step strategies' exact whole trees that `scripts/big_walks.py` has finished
    for `rules` (src/keypeg/data/big_walks.json), in `TABLE_STRATEGIES` order."""
    path = ROOT / "src" / "keypeg" / "data" / "big_walks.json"
    done = json.loads(path.read_text()).get(rules.key, {}) if path.is_file() else {}
    return [done[name] for name in TABLE_STRATEGIES if name in done]


def _names(rows: Any) -> str:
    names = [r["strategy"] for r in rows if r["strategy"] != "consistent"]
    return " and ".join(names) if names else "none"


def _compare(row: dict[str, Any], exact: list[dict[str, Any]]) -> str:
    lo, hi = row["ci95"]
    better = _names(r for r in exact if r["mean"] < lo)
    worse = _names(r for r in exact if r["mean"] > hi)
    tied = _names(r for r in exact if lo <= r["mean"] <= hi)
    said = [f"lies above the means of {better} (fewer guesses: they do better)"
            if better != "none" else "",
            f"lies below the means of {worse} (the genetic algorithm does better)"
            if worse != "none" else "",
            f"contains the means of {tied}" if tied != "none" else ""]
    return "its interval " + ", and ".join(x for x in said if x)


RENDERERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "noise-study": render_noise_study,
    "mm33": render_mm33,
    "values": render_values,
    "genetic": render_genetic,
    "codebreaker-big": render_codebreaker_big,
    "mm69-walks": render_mm69_walks,
    "evaluation": render_evaluation,
    "consistent-openings": render_consistent_openings,
    "entropy-study": render_entropy_study,
    "mm58": render_mm58,
    "optimal": render_optimal,
    "ledger": render_ledger,
    "unpublished": render_unpublished,
    "new-cells": render_new_cells,
    "labs": render_labs,
}


def render_readme(text: str, stats: dict[str, Any]) -> str:
    """Return `text` with every generated block re-rendered from `stats`."""
    def block(match: re.Match[str]) -> str:
        name = match.group(1)
        return (f"<!-- stats:{name} -->\n{RENDERERS[name](stats)}\n<!-- /stats:{name} -->")

    return re.sub(r"<!-- stats:([\w-]+) -->.*?<!-- /stats:\1 -->", block, text, flags=re.S)


def load() -> dict[str, Any]:
    return json.loads(STATS.read_text()) if STATS.exists() else {}


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "compute"
    if command == "compute":
        stats = load()
        for name in argv[1:] or list(SECTIONS):
            print(f"computing {name} ...", flush=True)
            stats[name] = SECTIONS[name]()
        STATS.parent.mkdir(exist_ok=True)
        STATS.write_text(json.dumps(stats, indent=1) + "\n")
        command = "readme"
    if command == "readme":
        README.write_text(render_readme(README.read_text(), load()))
        return 0
    if command == "check":
        ok = render_readme(README.read_text(), load()) == README.read_text()
        print("README is up to date" if ok else "README is out of date: run scripts/stats.py")
        return 0 if ok else 1
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
