"""`python -m keypeg.study`, the entropy float study's command line: it reads its options
(--help, --rules; anything else is refused in one sentence, exit 2), says on stderr what it
computes, and its numbers for a small game are a plain-Python walk's (tests/naive.py)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from keypeg.rules import find_rules
from keypeg.study import EntropyStudy, SpellingResult, format_study
from tests.naive import all_codes, blackwhite, cut_key


def study(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "keypeg.study", *args], capture_output=True,
                          text=True, timeout=300)


def naive_entropy_walk(pegs: int, colors: int) -> tuple[int, int, int]:
    """(total, decisions, tied) of the exact entropy strategy on MM(pegs, colors): at each
    node with two or more candidates, every code is scored by prod n^n over its parts; the
    least wins, then a candidate, then the lexically first. A decision is tied when more
    than one code has the least score."""
    codes = all_codes(pegs, colors)
    total = decisions = tied = 0
    stack = [codes]
    while stack:
        cands = stack.pop()
        total += len(cands)
        if len(cands) == 1:
            continue
        decisions += 1
        scored = []
        for g in codes:
            parts: dict[tuple[int, int], list[tuple[int, ...]]] = {}
            for s in cands:
                parts.setdefault(blackwhite(s, g), []).append(s)
            scored.append((cut_key("entropy", [len(p) for p in parts.values()]),
                           g not in cands, g, parts))
        best = min(scored, key=lambda x: x[:3])
        tied += sum(1 for x in scored if x[0] == best[0]) > 1
        stack.extend(p for fb, p in best[3].items() if fb != (pegs, 0))
    return total, decisions, tied


def test_help_prints_the_usage_and_studies_nothing() -> None:
    run = study("--help")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("usage: python -m keypeg.study [-h] [--rules NAME]... "
                                 "[--json]"), \
        run.stdout
    assert "--rules NAME" in run.stdout and "entropy computed as" not in run.stdout
    assert run.stderr == ""


@pytest.mark.parametrize("args,start", [
    (["--bogus"], "error: unknown option '--bogus'; "),
    (["--rules", "mini", "extra"], "error: unknown argument 'extra'; "),
    (["--rules"], "error: argument --rules: expected one argument; "),
    (["--rules", "chess"], "error: unknown rules 'chess'; "),
    (["--rules", "super"], f"error: the study of super ({8**5:,} codes) "),
])
def test_anything_else_is_refused_in_one_sentence(args: list[str], start: str) -> None:
    run = study(*args)
    assert run.returncode == 2
    assert run.stdout == ""
    assert re.fullmatch(r"error: [^\n]+\.\n", run.stderr), run.stderr
    assert run.stderr.startswith(start), run.stderr


def test_rules_are_studied_in_order_with_progress_on_stderr() -> None:
    """mini (4 pegs, 4 colours) and MM(2,3), each checked against the plain-Python walk."""
    assert (find_rules("mini").pegs, find_rules("mini").colors) == (4, 4)
    run = study("--rules", "mini", "--rules", "MM(2,3)")
    assert run.returncode == 0, run.stderr
    blocks = run.stdout.strip().split("\n\n")
    assert [b.split(":")[0] for b in blocks] == ["mini", "MM(2,3)"]
    for block, (pegs, colors) in zip(blocks, [(4, 4), (2, 3)], strict=True):
        total, decisions, tied = naive_entropy_walk(pegs, colors)
        assert f": {tied:,} of {decisions:,} decisions of the exact tree are tied" in block
        assert re.search(rf"exact \(prod n\^n as an integer\) +{total:,}  -", block), block
    lines = run.stderr.splitlines()
    assert lines[0] == "mini: computing the exact entropy tree ..."
    assert len(lines) == 6 and all(re.fullmatch(r"(mini|MM\(2,3\)): computing .+ \.\.\.", x)
                                   for x in lines), run.stderr
    assert "computing" not in run.stdout


def test_the_table_writes_thousands_like_the_rest() -> None:
    """Bulls-and-cows' study has 1,636 decisions (the report's figure): not '1611 of 1636'."""
    s = EntropyStudy(find_rules("bulls-and-cows"), 26424, 1636, 1611, 3,
                     [SpellingResult("plnp", 26429, 1010)])
    text = format_study(s)
    assert "1,611 of 1,636 decisions of the exact tree are tied" in text, text
    assert text.endswith("26,429  1,010 of 1,636"), text


def test_json_gives_each_study_as_data() -> None:
    """A researcher's export: the study had printed only its tables. MM(2,3) against the
    plain-Python walk."""
    import json

    from keypeg import __version__

    run = study("--rules", "MM(2,3)", "--rules", "MM(2,2)", "--json")
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)
    assert [r["rules"] for r in rows] == ["MM(2,3)", "MM(2,2)"]
    for row, (pegs, colors) in zip(rows, [(2, 3), (2, 2)], strict=True):
        total, decisions, tied = naive_entropy_walk(pegs, colors)
        assert (row["exact_total"], row["decisions"], row["tied"]) == (total, decisions, tied)
        assert {s["spelling"] for s in row["spellings"]} == {
            "nlog2n", "plog2p", "plnp", "plog2p-float32"}
        assert row["keypeg_version"] == __version__
    assert "computing" in run.stderr
