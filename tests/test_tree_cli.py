"""`keypeg tree`: show, export, import and verify decision trees. Expected numbers come
from the published tables, from hand-worked trees (tests/data/README.md) or from a naive
replay written here, never from the code under test."""

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from keypeg.cli import app
from keypeg.published import published
from keypeg.rules import Rules, find_rules
from keypeg.space import get_space
from keypeg.strategies import find_strategy
from keypeg.tree import DecisionTree
from keypeg.treeformats import write_irving
from tests import naive

runner = CliRunner()
DATA = Path(__file__).resolve().parent / "data"
KNUTH = published()["evaluate"]["classic"]["all_probes"]["maxsize"]
HAND = {"rules": "MM(2,3)", "secrets": 9, "total": 21, "mean": round(21 / 9, 4), "worst": 3,
        "histogram": [1, 4, 4], "valid": True,  # tests/data/README.md
        "max_guesses": None, "beyond_rows": None, "unreached": 0}  # (no rows: MM(2,3))
HAND_FILES = ["mm23-hand.arfst", "mm23-hand.arfst.yml", "mm23-hand.irving.txt"]
ARRAYS = ("guess", "parent", "response", "depth", "size")


def run(args):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception,
                                                                      SystemExit)
    return result


def one_error_line(result):
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def knuth_tree():
    return find_strategy("maxsize").tree(find_rules("classic"))


def same_arrays(a: DecisionTree, b: DecisionTree) -> bool:
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ARRAYS)


# ---------------------------------------------------------------- a naive replay
def naive_verdict(tree: DecisionTree, guess: np.ndarray):
    """Replay `tree` with the guesses `guess` (one per node) over every secret, scoring by
    hand: (total, histogram) or the first secret (as text) it fails on."""
    rules = tree.rules
    codes = naive.all_codes(rules.pegs, rules.symbols, rules.repeats)
    space = get_space(rules)
    kids: dict[tuple[int, str], int] = {}
    for i in range(1, tree.nodes):
        fb = space.feedback(int(tree.response[i]))
        kids[int(tree.parent[i]), str(fb)] = i
    found = []
    for secret in codes:
        node, depth = 0, 1
        while True:
            g = codes[int(guess[node])]
            if g == secret:
                found.append(depth)
                break
            b, w = naive.blackwhite(secret, g)
            node = kids.get((node, f"{b}B{w}W"), -1)
            if node < 0:
                return "".join(str(s + 1) for s in secret)
            depth += 1
    return sum(found), [found.count(d) for d in range(1, max(found) + 1)]


# ---------------------------------------------------------------- verify
def test_knuth_tree_rebuilt_from_maxsize_verifies_at_5801(tmp_path):
    out = tmp_path / "knuth.txt"
    assert run(["tree", "export", "--strategy", "maxsize", "--format", "irving", "--out",
                out]).exit_code == 0
    result = run(["tree", "verify", out, "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    # (what the text line says: the rules, secrets and mean as well)
    assert data == {"rules": "classic", "secrets": 1296, "total": KNUTH["total"],
                    "mean": round(KNUTH["total"] / 1296, 4), "worst": KNUTH["worst"],
                    "histogram": KNUTH["histogram"], "valid": True,
                    # classic's board: 10 rows, none beyond them; every guess reached
                    "max_guesses": 10, "beyond_rows": 0, "unreached": 0}
    assert data["total"] == 5801 and data["histogram"] == [1, 6, 62, 533, 694]
    text = run(["tree", "verify", out, "classic"])
    assert text.exit_code == 0
    assert "valid strategy" in text.stdout and "5,801" in text.stdout
    assert "1 / 6 / 62 / 533 / 694" in text.stdout


@pytest.mark.parametrize("name", HAND_FILES)
def test_hand_written_trees_verify(name):
    result = run(["tree", "verify", DATA / name, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == HAND


def test_a_written_tree_is_named_by_its_whole_path(tmp_path):
    folder = tmp_path / ("a" * 60) / ("b" * 60)
    folder.mkdir(parents=True)
    result = run(["tree", "import", DATA / HAND_FILES[0], "--out", folder / "t.json"])
    assert result.exit_code == 0 and f"to {folder / 't.json'}" in result.output, result.output


def test_hand_written_trees_are_one_tree(tmp_path):
    trees = []
    for name in HAND_FILES:
        out = tmp_path / f"{name}.json"
        assert run(["tree", "import", DATA / name, "--out", out]).exit_code == 0
        trees.append(DecisionTree.load(out))
    rules = Rules(pegs=2, colors=3)
    for t in trees:
        assert t.rules == rules and t.secrets == 9
        assert (t.total, t.histogram) == (HAND["total"], HAND["histogram"])
        assert same_arrays(t, trees[0])
    space = get_space(rules)
    assert [space.text(int(g)) for g in trees[0].guess] == [
        "12", "33", "23", "31", "21", "13", "22", "32", "11"]
    trees[0].replay()  # keypeg's own replay agrees with the sizes
    assert naive_verdict(trees[0], trees[0].guess) == (HAND["total"], HAND["histogram"])


def test_arfst_files_name_no_rules_so_they_come_from_the_codes():
    result = run(["tree", "verify", DATA / "mm23-hand.arfst"])
    assert result.exit_code == 0
    assert "MM(2,3)" in result.stdout and "the game its codes show" in result.stderr
    # given rules win; a bigger game finds secrets the tree has no branch for
    bigger = run(["tree", "verify", DATA / "mm23-hand.arfst", "--pegs", "2", "--colors", "4",
                  "--json"])
    assert bigger.exit_code == 1
    data = json.loads(bigger.stdout)
    # 14 (arfst23's 03) answers 1B0W to 12 and to 13, and the tree ends at 11
    assert data["valid"] is False and data["secret"] == "14"
    assert data["reason"] == ("the tree ends at guess 3, 11, which is not the secret (it "
                              "answers 1B0W).")


def test_verify_names_the_first_secret_a_corrupted_tree_fails_on(tmp_path, knuth_tree):
    tree = knuth_tree
    # a wrong guess at one inner node (guess 3, several secrets below it)
    k = next(i for i in range(tree.nodes) if tree.depth[i] == 3 and tree.size[i] > 4)
    guess = tree.guess.copy()
    guess[k] = (guess[k] + 1) % tree.secrets
    want = naive_verdict(tree, guess)
    assert isinstance(want, str)  # the naive replay fails too
    bad = tmp_path / "bad.txt"
    bad.write_text(write_irving(replace(tree, guess=guess)))
    result = run(["tree", "verify", bad, "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["valid"] is False and data["secret"] == want
    assert data["failures"] >= 1 and data["reason"]
    text = run(["tree", "verify", bad])
    assert text.exit_code == 1 and f"the first secret {want}:" in text.stdout
    # and import refuses it, with the same secret
    imp = run(["tree", "import", bad, "--out", tmp_path / "bad.json"])
    assert imp.exit_code == 1 and want in imp.stderr
    assert not (tmp_path / "bad.json").exists()


def test_verify_a_leaf_that_is_not_the_secret(tmp_path, knuth_tree):
    text = write_irving(knuth_tree)
    # the first line below guess 2 that ends the tree: its code is the one secret there
    m = re.search(r"^( {4}\S+: )(\d{4}) \(1\) \*$", text, flags=re.M)
    secret = m.group(2)
    other = "6666" if secret != "6666" else "5555"
    bad = tmp_path / "leaf.txt"
    bad.write_text(text[: m.start()] + m.group(1) + other + " (1)" + text[m.end():])
    data = json.loads(run(["tree", "verify", bad, "--json"]).stdout)
    assert data["valid"] is False and data["secret"] == secret and data["failures"] == 1
    assert "not the secret" in data["reason"] and other in data["reason"]


def test_verify_an_illegal_guess(tmp_path):
    text = (DATA / "mm23-hand.irving.txt").read_text().replace("1B0W: 13", "1B0W: 14")
    bad = tmp_path / "illegal.txt"
    bad.write_text(text)
    result = run(["tree", "verify", bad, "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    # the secrets under 1B0W after 12 are 11, 13, 22 and 32 (worked in tests/data/README.md)
    assert data["valid"] is False and data["secret"] == "11" and data["failures"] == 4
    assert "14" in data["reason"] and "not a code" in data["reason"]


@pytest.mark.parametrize("content,fmt,words", [
    (None, "auto", "no such file"),
    (b"\xff\xfe\x00garbage\x9c", "auto", "not UTF-8"),
    ("1122\n  2B0W: 1234\n 1B0W: 3456\n", "irving", "indent"),
    ("1122\n  9B0W: 1234\n", "irving", "9B0W"),
    ("1122\n  1B0W: 1234\n  1B0W: 3456\n", "irving", "second branch"),
    ('{"format": "other"}', "auto", "not a keypeg tree"),
    ("{oops", "json", "not valid JSON"),
    ("[1,2", "auto", "not valid JSON"),  # (read as Irving's: exit 1, "fails on 1,296")
    ("[1, 2]", "auto", "not a keypeg tree"),
    ("           ---- O--- OO-- OOO- OOOO X--- XO-- XOO- XOOO XX-- XXO- XXOO XXX- XXXX\n"
     "000 1 0012 >001 ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- 0012\n",
     "arfst", "line 001"),
    ("---\n- 0012\n- XZ--: 1234\n", "auto", "not an answer"),
])
def test_verify_exits_2_for_a_file_it_cannot_read(tmp_path, content, fmt, words):
    path = tmp_path / "tree.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    result = run(["tree", "verify", path, "--format", fmt, "--json"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert words in one_error_line(result)


@pytest.mark.parametrize("fmt,kind", [("dot", "Graphviz graph (dot)"),
                                      ("svg", "SVG picture"), ("text", "text view")])
def test_a_view_keypeg_wrote_is_named_as_one_not_read(tmp_path, fmt, kind):
    """An exported picture or text view read back had been taken for an Irving file
    ("line 1: cannot read 'digraph tree {'; write the first guess alone ...")."""
    path = tmp_path / f"tree.{fmt}"
    assert run(["tree", "export", "-s", "maxsize", "--format", fmt, "-o", path]).exit_code == 0
    for command in (["tree", "verify", path], ["tree", "show", "--from", path]):
        result = run(command)
        assert result.exit_code == 2
        line = one_error_line(result)
        assert f"is a tree's {kind}" in line and "export the tree as json" in line


def test_verify_refuses_a_tree_from_a_position(tmp_path):
    path = tmp_path / "position.json"
    saved = run(["optimal", "1122=0B1W", "3344=1B0W", "5516=1B1W", "--save", path])
    assert saved.exit_code == 0, saved.stderr
    result = run(["tree", "verify", path, "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "plays from a position (its first guess is guess number 4)" in one_error_line(result)


def test_verify_refuses_rules_that_are_not_the_files(tmp_path):
    result = run(["tree", "verify", DATA / "mm23-hand.irving.txt", "classic"])
    assert result.exit_code == 2
    assert "MM(2,3)" in one_error_line(result)
    both = run(["tree", "verify", DATA / "mm23-hand.irving.txt", "mini", "--rules", "mini"])
    assert both.exit_code == 2 and "once" in one_error_line(both)
    fmt = run(["tree", "verify", DATA / "mm23-hand.irving.txt", "--format", "xml"])
    assert fmt.exit_code == 2 and "auto, json, irving, arfst" in one_error_line(fmt)


# ---------------------------------------------------------------- round trips
ROUND_TRIPS = [
    (["classic"], "maxsize", ["json", "irving", "arfst", "arfst-yaml"]),
    (["--pegs", "3", "--colors", "4", "--positional"], "entropy", ["json", "irving"]),
    (["--pegs", "3", "--colors", "4", "--no-repeats"], "expsize",
     ["json", "irving", "arfst", "arfst-yaml"]),
    (["--pegs", "3", "--colors", "3", "--blanks", "--positional"], "parts", ["irving"]),
]
CASES = [(r, s, f) for r, s, fmts in ROUND_TRIPS for f in fmts]


@pytest.mark.parametrize("rule_args,strategy,fmt", CASES,
                         ids=[f"{' '.join(r)}-{f}" for r, _, f in CASES])
def test_export_then_import_gives_the_same_tree(tmp_path, rule_args, strategy, fmt):
    from keypeg.cli.common import build_rules

    opts = {"rules_name": rule_args[0]} if len(rule_args) == 1 else {
        "pegs": int(rule_args[1]), "colors": int(rule_args[3]),
        "positional": "--positional" in rule_args, "no_repeats": "--no-repeats" in rule_args,
        "blanks": "--blanks" in rule_args}
    rules = build_rules(**opts)
    want = find_strategy(strategy).tree(rules)
    exported = tmp_path / f"tree.{fmt}"
    result = run(["tree", "export", *rule_args, "--strategy", strategy, "--format", fmt,
                  "--out", exported])
    assert result.exit_code == 0, result.output
    back = tmp_path / "back.json"
    given = rule_args if fmt.startswith("arfst") else []
    result = run(["tree", "import", exported, *given, "--out", back])
    assert result.exit_code == 0, result.output
    got = DecisionTree.load(back)
    assert same_arrays(got, want)
    assert got.rules.key == rules.key
    assert (got.total, got.histogram) == (want.total, want.histogram)


def test_arfst_without_repeats_keeps_every_answer_column(tmp_path):
    out = tmp_path / "t.arfst"
    run(["tree", "export", "--pegs", "3", "--colors", "4", "--no-repeats", "-s", "maxsize",
         "-f", "arfst", "-o", out])
    header = out.read_text().splitlines()[0].split()
    # every black/white answer of 3 pegs but 2B1W, blacks then whites ascending
    assert header == ["---", "O--", "OO-", "OOO", "X--", "XO-", "XOO", "XX-", "XXX"]
    rows = [line.split() for line in out.read_text().splitlines()[1:]]
    # three distinct of four colours always share two: no code gets ---, O-- or X--
    assert all(row[3] == row[4] == row[7] == "---" for row in rows)
    result = run(["tree", "verify", out, "--json"])  # no rules: they come from the codes
    assert result.exit_code == 0 and json.loads(result.stdout)["valid"]
    # a code under an answer the rules rule out is an error in the file
    lines = out.read_text().splitlines()
    fields = lines[1].split()
    fields[3] = fields[2]  # the --- column of the first guess gets its code
    out.write_text("\n".join([lines[0], " ".join(fields), *lines[2:]]) + "\n")
    result = run(["tree", "import", out, "--pegs", "3", "--colors", "4", "--no-repeats"])
    assert result.exit_code == 2 and "cannot happen" in one_error_line(result)


def test_import_exits_2_for_a_file_it_cannot_read(tmp_path):
    (tmp_path / "t.txt").write_text("1122\n  1B0W: 1234\n  1B0W: 3456\n")
    result = run(["tree", "import", tmp_path / "t.txt", "--out", tmp_path / "t.json"])
    assert result.exit_code == 2 and "second branch" in one_error_line(result)
    assert not (tmp_path / "t.json").exists()


def test_import_to_stdout_and_gzip(tmp_path):
    result = run(["tree", "import", DATA / "mm23-hand.arfst"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["format"] == "keypeg-tree" and data["summary"]["total"] == HAND["total"]
    gz = tmp_path / "t.json.gz"
    assert run(["tree", "import", DATA / "mm23-hand.irving.txt", "-o", gz]).exit_code == 0
    assert gz.read_bytes()[:2] == b"\x1f\x8b"
    assert json.loads(run(["tree", "verify", gz, "--json"]).stdout) == HAND


def test_export_refuses_what_a_format_cannot_hold(tmp_path):
    result = run(["tree", "export", "--pegs", "3", "--colors", "3", "--positional", "-s",
                  "maxsize", "-f", "arfst"])
    assert result.exit_code == 2 and "black/white" in one_error_line(result)
    result = run(["tree", "export", "-s", "maxsize", "-f", "irving", "--depth", "2"])
    assert result.exit_code == 2 and "whole tree" in one_error_line(result)
    result = run(["tree", "export", "-s", "maxsize", "-f", "png"])
    assert result.exit_code == 2 and "json, dot, svg" in one_error_line(result)
    result = run(["tree", "export", "-s", "maxsize", "-o", tmp_path / "nowhere" / "t.json"])
    assert result.exit_code == 2 and "does not exist" in one_error_line(result)
    result = run(["tree", "show", "-s", "maxsize", "--from", DATA / "mm23-hand.arfst"])
    assert result.exit_code == 2 and "not both" in one_error_line(result)


# ---------------------------------------------------------------- show
def test_show_lists_the_first_answers_with_part_sizes_and_totals(knuth_tree):
    result = run(["tree", "show", "--strategy", "knuth"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "guess 1: 1122, 1,296 secrets, total 5,801" in result.stdout
    parts = [re.match(r"^  (\dB\dW): (?:([\d,]+) secrets?, total ([\d,]+) -> (\d{4}))?", ln)
             for ln in lines]
    parts = [m for m in parts if m]
    # the parts of 1122 counted by hand
    codes = naive.all_codes(4, 6)
    sizes: dict[str, int] = {}
    for c in codes:
        b, w = naive.blackwhite(c, (0, 0, 1, 1))
        sizes[f"{b}B{w}W"] = sizes.get(f"{b}B{w}W", 0) + 1
    shown = {m.group(1): int(m.group(2).replace(",", "")) for m in parts if m.group(2)}
    assert shown == {k: v for k, v in sizes.items() if k != "4B0W"}
    assert parts[-1].group(1) == "4B0W"  # found on guess 1
    totals = sum(int(m.group(3).replace(",", "")) for m in parts if m.group(3))
    assert totals + 1 == KNUTH["total"]
    hidden = int(re.search(r"^([\d,]+) nodes hidden", result.stdout, flags=re.M)
                 .group(1).replace(",", ""))
    assert hidden == knuth_tree.nodes - 1 - len(shown)


def test_show_path_opens_one_branch():
    result = run(["tree", "show", "classic", "-s", "maxsize", "--path", "1B1W", "--depth",
                  "0"])
    assert result.exit_code == 0
    codes = naive.all_codes(4, 6)
    part = [c for c in codes if naive.blackwhite(c, (0, 0, 1, 1)) == (1, 1)]
    assert f"guess 2: 1134, {len(part)} secrets" in result.stdout
    assert "hidden" not in result.stdout
    found = re.findall(r"found on guess (\d)", result.stdout)
    assert len(found) == len(part)  # every secret of the part is found once
    deeper = run(["tree", "show", "-s", "maxsize", "--path", "1B1W/0B0W"])
    assert "path: 1122 -1B1W-> 1134 -0B0W-> " in deeper.stdout
    rest = naive.naive_filter(codes, [((0, 0, 1, 1), (1, 1)), ((0, 0, 2, 3), (0, 0))],
                              "blackwhite")
    assert re.search(rf"^guess 3: \d{{4}}, {len(rest)} secrets", deeper.stdout, flags=re.M)
    bad = run(["tree", "show", "-s", "maxsize", "--path", "1B1W,3B1W"])
    assert bad.exit_code == 2 and "3B1W" in one_error_line(bad)


def test_show_json_and_text_export_agree():
    view = run(["tree", "show", "--pegs", "2", "--colors", "3", "-s", "maxsize", "--json"])
    data = json.loads(view.stdout)
    assert data["secrets"] == 9 and data["node"]["secrets"] == 9
    answers = data["node"]["answers"]
    assert sum(a["secrets"] for a in answers) == 9
    assert sum(a["total"] for a in answers) == data["total"]
    # each node says whether its guess can be the secret there (named 'found' before, which
    # a review read as found): plain Python, from the node's guess and its secrets
    from tests.naive import all_codes, blackwhite

    def check(node, secrets):
        guess = tuple(int(ch) - 1 for ch in node["guess"])
        assert node["can_be_secret"] == (guess in secrets) and "found" not in node
        for part in node.get("answers", []):
            if "node" in part:
                b, w = (int(x) for x in part["answer"].replace("B", " ").rstrip("W").split())
                check(part["node"], [s for s in secrets if blackwhite(s, guess) == (b, w)])

    check(data["node"], all_codes(2, 3))
    text = run(["tree", "export", "--pegs", "2", "--colors", "3", "-s", "maxsize", "-f",
                "text"])
    shown = run(["tree", "show", "--pegs", "2", "--colors", "3", "-s", "maxsize"])
    assert text.stdout == shown.stdout


def test_show_and_export_read_a_tree_file(tmp_path):
    result = run(["tree", "show", "--from", DATA / "mm23-hand.arfst.yml", "--depth", "0"])
    assert result.exit_code == 0
    assert "total 21" in result.stdout and result.stdout.count("found on guess") == 9


# ---------------------------------------------------------------- pictures
def test_svg_is_well_formed_and_says_what_it_hides(tmp_path, knuth_tree):
    out = tmp_path / "knuth.svg"
    assert run(["tree", "export", "-s", "maxsize", "-f", "svg", "-o", out]).exit_code == 0
    root = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    boxes = root.findall(f"{ns}rect")[1:]  # the first is the background
    per_level = np.bincount(knuth_tree.depth)
    assert len(boxes) == per_level[1] + per_level[2] + per_level[3] <= 300
    texts = " ".join(t.text or "" for t in root.iter(f"{ns}text"))
    hidden = knuth_tree.nodes - len(boxes)
    assert "Showing guesses 1 to 3 of 5" in texts and f"{hidden:,} deeper nodes" in texts
    small = tmp_path / "small.svg"
    run(["tree", "export", "--from", DATA / "mm23-hand.arfst", "-f", "svg", "-o", small])
    assert "The whole tree" in small.read_text()
    boxes = ET.parse(small).getroot().findall(f"{ns}rect")[1:]
    assert len(boxes) == 9
    # filled: the six guesses that end the hand tree (tests/data/README.md)
    assert sum(b.get("fill") == "#dff2df" for b in boxes) == 6


def test_dot_has_a_node_per_guess_and_an_edge_per_answer():
    result = run(["tree", "export", "--from", DATA / "mm23-hand.irving.txt", "-f", "dot"])
    assert result.exit_code == 0
    assert result.stdout.startswith("digraph tree {")
    assert len(re.findall(r"^  n\d+ \[label=", result.stdout, flags=re.M)) == 9
    assert len(re.findall(r"^  n\d+ -> n\d+", result.stdout, flags=re.M)) == 8
    assert '[label="0B2W"]' in result.stdout


def test_the_command_line_loads_no_numpy():
    code = "import sys, keypeg.cli.tree, keypeg.cli; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_the_readme_shows_what_keypeg_tree_prints(tmp_path):
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    shown = run(["tree", "show", "--strategy", "knuth"]).stdout
    assert f"$ keypeg tree show --strategy knuth\n{shown}```" in readme
    svg = run(["tree", "export", "-s", "knuth", "-f", "svg", "--depth", "2"]).stdout
    assert (Path(__file__).resolve().parent.parent / "docs" / "knuth-tree.svg").read_text() == svg


def test_an_invalid_tree_names_its_rules_as_written(tmp_path):
    """The error for a tree that fails a secret names the rules once escaped, not twice
    ("MM(2,3) \\[no repeats]" was shown)."""
    good = tmp_path / "nr.json"
    export = runner.invoke(app, ["tree", "export", "--pegs", "2", "--colors", "3",
                                 "--no-repeats", "--strategy", "entropy", "--format", "json",
                                 "--out", str(good)])
    assert export.exit_code == 0
    data = json.loads(good.read_text())
    data["root"]["parts"]["0B2W"]["guess"] = "13"  # 21 is never guessed
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = runner.invoke(app, ["tree", "show", "--from", str(bad)])
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "is not a valid strategy for MM(2,3) [no repeats]: secret 21" in text


def test_an_optimal_tree_keypeg_does_not_ship_is_searched_for_a_bounded_time(monkeypatch):
    """'keypeg tree show super' searched on in silence with no way to stop it but Ctrl-C;
    the search is now bounded, and running out says how to get the tree."""
    from keypeg.cli import tree

    monkeypatch.setattr(tree, "OPTIMAL_TREE_SECONDS", 0.5)
    result = run(["tree", "show", "MM(6,5)"])
    assert result.exit_code == 3
    assert "not found within 0.5 s" in result.output and "--save FILE" in result.output


def test_tree_show_walks_past_the_full_table_part_by_part(monkeypatch):
    """`keypeg tree show --strategy NAME` in a game whose full table is over the budget
    (Codebreaker 4-6; here classic under a 1 MB budget) walks the tree part by part, as
    `keypeg evaluate` does: the published total. Past the walks made on request (MM(6,9))
    it refuses, naming the checkpointed walk instead."""
    monkeypatch.setenv("KEYPEG_TABLE_BUDGET", str(1024 * 1024))  # classic needs 1.6 MB
    result = runner.invoke(app, ["tree", "show", "--strategy", "maxsize", "--depth", "1"])
    assert result.exit_code == 0, result.output
    total = published()["evaluate"]["classic"]["all_probes"]["maxsize"]["total"]
    assert f"total {total:,}" in result.stdout
    refused = runner.invoke(app, ["tree", "show", "--rules", "mm-6-9", "--strategy",
                                  "entropy"])
    assert refused.exit_code == 2
    assert "--checkpoint FILE --save-tree TREE" in refused.output


# ---------------------------------------------------------------- review findings (s49)
# the hand tree of tests/data with one guess no secret reaches: after 12 and 0B1W only 23
# and 31 are left, and neither answers 0B2W to 23 (worked by hand)
UNREACHED = ("12\n  0B0W: 33\n  0B1W: 23\n    0B1W: 31\n    0B2W: 32\n  0B2W: 21\n"
             "  1B0W: 13\n    0B0W: 22\n    0B1W: 32\n    1B0W: 11\n")


def test_the_board_rows_are_kept_in_show_and_verify_json(tmp_path):
    """`tree show --max-guesses 6` said 'worst 9 guesses' of a 6-row board with no note,
    and `verify --json` dropped the rows note and the unreached note that its text gives."""
    beyond = KNUTH["histogram"][4]  # Knuth's published 694 secrets found on guess 5
    shown = run(["tree", "show", "-s", "knuth", "--max-guesses", "4", "--depth", "1"])
    assert shown.exit_code == 0
    assert (f"note: the worst case takes 5 guesses, more than the 4 rows of classic: "
            f"{beyond} secrets need more than 4 guesses") in shown.stdout
    assert "note:" not in run(["tree", "show", "-s", "knuth", "--depth", "1"]).stdout
    data = json.loads(run(["tree", "show", "-s", "knuth", "--max-guesses", "4", "--depth",
                           "1", "--json"]).stdout)
    assert (data["max_guesses"], data["beyond_rows"]) == (4, beyond)
    out = tmp_path / "knuth.irving"
    assert run(["tree", "export", "-s", "knuth", "-o", out]).exit_code == 0
    data = json.loads(run(["tree", "verify", out, "--json", "--max-guesses", "4"]).stdout)
    assert (data["max_guesses"], data["beyond_rows"], data["unreached"]) == (4, beyond, 0)
    text = run(["tree", "verify", out, "--max-guesses", "4"]).stdout
    assert f"{beyond} secrets need more than 4 guesses" in text
    # no rows (MM(2,3)): the keys are there, null; one guess no secret reaches is counted
    hand = tmp_path / "unreached.txt"
    hand.write_text(UNREACHED)
    data = json.loads(run(["tree", "verify", hand, "MM(2,3)", "--json"]).stdout)
    assert data == {**HAND, "unreached": 1}
    assert "1 guess in the file no secret reaches" in run(["tree", "verify", hand,
                                                           "MM(2,3)"]).stdout
    # a tree that fails has the keys too: its rows, and no counts of a replay cut short
    hand.write_text(UNREACHED.replace("  0B0W: 33\n", ""))
    data = json.loads(run(["tree", "verify", hand, "MM(2,3)", "--max-guesses", "3",
                           "--json"]).stdout)
    assert data["valid"] is False and data["secret"] == "33"  # 0B0W to 12: no branch
    assert (data["max_guesses"], data["beyond_rows"], data["unreached"]) == (3, None, None)


def hand_json(rules: object = "MM(2,3)", guess: object = "12") -> dict:
    """The hand tree of tests/data written as keypeg JSON by hand (no sizes, no summary)."""
    data: dict = {"format": "keypeg-tree", "root": {"guess": guess, "parts": {
        "0B0W": {"guess": "33"}, "0B1W": {"guess": "23", "parts": {"0B1W": {"guess": "31"}}},
        "0B2W": {"guess": "21"}, "1B0W": {"guess": "13", "parts": {
            "0B0W": {"guess": "22"}, "0B1W": {"guess": "32"}, "1B0W": {"guess": "11"}}}}}}
    if rules is not None:
        data["rules"] = rules
    return data


def test_a_hand_written_json_tree_names_its_rules_or_takes_them_given(tmp_path):
    """'"rules": "MM(2,2)"' was refused ('no readable rules and root'), and a JSON tree
    without rules ignored RULES on the command line."""
    path = tmp_path / "h.json"
    for rules in ("MM(2,3)", "mm(2,3)", {"pegs": 2, "colors": 3}):
        path.write_text(json.dumps(hand_json(rules)))
        result = run(["tree", "verify", path, "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == HAND
    path.write_text(json.dumps(hand_json(None)))
    for given in (["MM(2,3)"], ["--pegs", "2", "--colors", "3"]):
        result = run(["tree", "verify", path, *given, "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == HAND
    # a preset's name: Knuth's tree with "rules": "classic"
    knuth = tmp_path / "knuth.json"
    assert run(["tree", "export", "-s", "knuth", "-o", knuth]).exit_code == 0
    data = json.loads(knuth.read_text())
    data["rules"] = "classic"
    knuth.write_text(json.dumps(data))
    assert json.loads(run(["tree", "verify", knuth, "--json"]).stdout)["total"] == 5801
    path.write_text(json.dumps(hand_json("MM(2,3)")))
    assert "MM(2,3)" in one_error_line(run(["tree", "verify", path, "classic"]))


@pytest.mark.parametrize("data,words,not_words", [
    (hand_json("nonsense"), ["unknown rules 'nonsense'", "classic"], ["root"]),
    (hand_json({"pegs": 2}), ['"rules" must be a rules name such as "classic"',
                              "an object giving pegs and colors"], ["root"]),
    (hand_json({"pegs": -2, "colors": 3}), ['"rules" cannot be read', "-2"], ["root"]),
    ({"format": "keypeg-tree", "rules": "MM(2,3)"}, ['no "root" field', '"guess": "11"'],
     ["rules"]),
    (hand_json("MM(2,3)", 12), ['the guess of the root must be text, like "12", not 12'],
     ["has no guess"]),
    ({**hand_json("MM(2,3)"), "root": {"parts": {}}}, ["the root has no guess"], ["rules"]),
])
def test_a_hand_written_json_tree_is_refused_for_what_is_wrong(tmp_path, data, words,
                                                              not_words):
    path = tmp_path / "h.json"
    path.write_text(json.dumps(data))
    result = run(["tree", "verify", path])
    assert result.exit_code == 2
    line = one_error_line(result).replace(str(path), "FILE")
    line = " ".join(line.split())
    assert "no readable rules and root" not in line
    for w in words:
        assert w in line, line
    for w in not_words:  # (what is fine is not blamed)
        assert w not in line, line


def test_export_takes_the_format_from_the_extension(tmp_path):
    """`export -o knuth.svg` without --format wrote JSON into the .svg file."""
    svg = tmp_path / "knuth.svg"
    result = run(["tree", "export", "-s", "knuth", "-o", svg])
    assert result.exit_code == 0 and " as svg " in result.stderr
    assert ET.parse(svg).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    dot = tmp_path / "knuth.dot"
    assert run(["tree", "export", "-s", "knuth", "-o", dot]).exit_code == 0
    assert dot.read_text().startswith("digraph tree {")
    for name, start in (("knuth.txt", "# keypeg decision tree, Irving-style"),
                        ("knuth.irving.txt", "# keypeg decision tree, Irving-style"),
                        ("knuth.yml", "---\n- 0011\n"),  # (arfst23's digits: 1122)
                        ("knuth.json", '{"format":"keypeg-tree"'),
                        ("knuth.text", "classic: 4 pegs"),
                        ("knuth.data", '{"format":"keypeg-tree"')):  # unknown: json
        out = tmp_path / name
        assert run(["tree", "export", "-s", "knuth", "-o", out]).exit_code == 0
        assert out.read_text().startswith(start), name
    for name in ("knuth.txt", "knuth.yml"):
        data = json.loads(run(["tree", "verify", tmp_path / name, "--json"]).stdout)
        assert data["total"] == 5801
    gz = tmp_path / "knuth.svg.gz"
    assert run(["tree", "export", "-s", "knuth", "-o", gz]).exit_code == 0
    import gzip
    assert gzip.decompress(gz.read_bytes()).startswith(b"<svg")
    # an explicit format that fits: as asked (the README writes irving to knuth.txt)
    out = tmp_path / "k.txt"
    assert run(["tree", "export", "-s", "knuth", "-f", "text", "-o", out]).exit_code == 0
    assert out.read_text().startswith("classic: 4 pegs")


@pytest.mark.parametrize("fmt,name,words", [
    ("svg", "out.png", "PNG"),
    (None, "out.png", "PNG"),
    ("json", "x.svg", "--format json does not fit"),
    ("svg", "x.dot", "--format svg does not fit"),
    ("irving", "x.yml.gz", "--format irving does not fit"),
])
def test_export_refuses_a_format_the_extension_contradicts(tmp_path, fmt, name, words):
    out = tmp_path / name
    result = run(["tree", "export", "-s", "knuth", *(["-f", fmt] if fmt else []), "-o", out])
    assert result.exit_code == 2 and words in one_error_line(result)
    assert not out.exists()


def test_import_and_export_do_not_write_over_the_file_read(tmp_path):
    """`tree import X -o X` replaced the hand-written file by its JSON without a word."""
    src = tmp_path / "mm23.txt"
    text = (DATA / "mm23-hand.irving.txt").read_text()
    src.write_text(text)
    for command in (["tree", "import", src, "-o", src],
                    ["tree", "import", src, "-o", f"{tmp_path}/./mm23.txt"],
                    ["tree", "export", "--from", src, "-f", "irving", "-o", src]):
        result = run(command)
        assert result.exit_code == 2 and "is the file being read" in one_error_line(result)
        assert src.read_text() == text


def test_import_writes_json_under_a_json_name_only(tmp_path):
    """`tree import X -o x.svg` wrote keypeg's JSON into x.svg."""
    for name in ("x.svg", "x.txt", "x.png", "x.yml.gz"):
        result = run(["tree", "import", DATA / HAND_FILES[0], "-o", tmp_path / name])
        assert result.exit_code == 2 and "import writes keypeg's tree JSON" in (
            one_error_line(result))
        assert not (tmp_path / name).exists()
    for name in ("x.json", "x.json.gz", "x.tree"):  # (an unknown extension is not refused)
        assert run(["tree", "import", DATA / HAND_FILES[0], "-o", tmp_path / name]
                   ).exit_code == 0


def test_an_out_path_ending_in_a_slash_is_a_folder(tmp_path):
    """`-o mm22.txt.bak/` (no such folder) wrote a file named mm22.txt.bak."""
    missing = tmp_path / "backup"
    for command in (["tree", "import", DATA / HAND_FILES[0]],
                    ["tree", "export", "-s", "knuth"]):
        result = run([*command, "-o", f"{missing}/"])
        assert result.exit_code == 2 and "names a folder" in one_error_line(result)
        assert not missing.exists()
        # an existing folder, with or without the slash: refused as a folder, as before
        for out in (f"{tmp_path}/", str(tmp_path)):
            result = run([*command, "-o", out])
            assert result.exit_code == 2 and "is a folder" in one_error_line(result)


def test_path_errors_say_what_path_reads_and_where_the_game_ends():
    result = run(["tree", "show", "-s", "knuth", "--path", "2 1"])
    line = one_error_line(result)
    assert result.exit_code == 2 and "cannot read the answer '2'" in line
    assert "2 1" not in line and "2B1W" in line and "commas" in line
    # 1122 answers 0B4W to one secret only (counted here): the game ends when it is guessed
    (last,) = [c for c in naive.all_codes(4, 6) if naive.blackwhite(c, (0, 0, 1, 1)) == (0, 4)]
    secret = "".join(str(x + 1) for x in last)
    line = one_error_line(run(["tree", "show", "-s", "knuth", "--path", "0B4W,1B0W"]))
    assert f"{secret} is the secret after 0B4W: it answers 4B0W and the game ends" in line
    assert "none" not in line
    line = one_error_line(run(["tree", "show", "-s", "knuth", "--path", "4B0W"]))
    assert "1122 is the secret: the game ends there" in line
    result = run(["tree", "show", "knuth"])
    assert result.exit_code == 2
    assert "did you mean --strategy knuth?" in one_error_line(result)
    assert "did you mean" not in one_error_line(run(["tree", "show", "knuht"]))


def test_export_messages_count_the_nodes_written(tmp_path, knuth_tree):
    """Partial views were announced with the whole tree's 1,378 nodes."""
    text = run(["tree", "export", "-s", "knuth", "-f", "text", "-o", tmp_path / "k.txt"])
    # the text view, two guesses deep: 1122 and one guess per answer but the win
    answers = {naive.blackwhite(c, (0, 0, 1, 1)) for c in naive.all_codes(4, 6)} - {(4, 0)}
    assert f"({len(answers) + 1} of its {knuth_tree.nodes:,} nodes)" in text.stderr
    out = tmp_path / "p.svg"
    result = run(["tree", "export", "-s", "knuth", "--path", "1B1W", "-o", out])
    boxes = len(ET.parse(out).getroot().findall("{http://www.w3.org/2000/svg}rect")) - 1
    assert f"({boxes} of its {knuth_tree.nodes:,} nodes)" in result.stderr
    assert boxes < knuth_tree.nodes
    whole = run(["tree", "export", "-s", "knuth", "-f", "irving", "-o", tmp_path / "k.irving"])
    assert f"({knuth_tree.nodes:,} nodes)" in whole.stderr


def test_show_counts_hidden_nodes_as_nodes_with_plurals():
    """'[+266 hidden]' next to '256 secrets' read like secrets; '1 nodes', '1 secrets'."""
    knuth = run(["tree", "show", "-s", "knuth"]).stdout
    assert re.search(r"^  0B0W: 256 secrets, .*  \[\+\d+ nodes hidden\]$", knuth, flags=re.M)
    # MM(2,2): 11 leaves 12 and 21 (1B0W); the guess for them leaves one node below
    small = run(["tree", "show", "--pegs", "2", "--colors", "2", "-s", "maxsize"]).stdout
    assert "[+1 node hidden]" in small and "\n1 node hidden below guess 2" in small
    one = run(["tree", "show", "--pegs", "3", "--colors", "1"]).stdout
    assert "optimal: 1 secret, total 1" in one


def test_irving_names_rules_that_read_back_and_dot_has_a_legend(tmp_path):
    out = tmp_path / "t.irving"
    assert run(["tree", "export", "--pegs", "3", "--colors", "3", "--positional", "-s",
                "maxsize", "-o", out]).exit_code == 0
    assert "# rules: MM(3,3) [positional]\n" in out.read_text()
    assert json.loads(run(["tree", "verify", out, "--json"]).stdout)["rules"] == (
        "MM(3,3) [positional]")
    # rows a preset does not have: the name would read back as 10 rows, so JSON
    assert run(["tree", "export", "-s", "maxsize", "--max-guesses", "6", "-o", out]
               ).exit_code == 0
    line = next(ln for ln in out.read_text().splitlines() if ln.startswith("# rules:"))
    assert json.loads(line[len("# rules:"):])["max_guesses"] == 6
    assert json.loads(run(["tree", "verify", out, "--json"]).stdout)["max_guesses"] == 6
    dot = run(["tree", "export", "-s", "knuth", "-f", "dot", "--depth", "2"]).stdout
    label = re.search(r'^  label="(.*)"; labelloc=t;$', dot, flags=re.M).group(1)
    for words in ("double border", "can be the secret", "dashed", "hidden",
                  "number of secrets"):
        assert words in label
    svg = run(["tree", "export", "-s", "knuth", "-f", "svg", "--depth", "2"]).stdout
    assert "dashed" in svg and 'stroke-dasharray' in svg


def test_a_hand_written_tree_shows_its_answers_in_order(tmp_path):
    """Answers were shown in file order (1B0W before 0B0W) where generated trees sort."""
    lines = (DATA / "mm23-hand.irving.txt").read_text().splitlines()
    body = [ln for ln in lines if not ln.startswith("#")]
    # the 1B0W branch of 12 (four lines) moved first, 13's answers reversed
    i = body.index("  1B0W: 13")
    shuffled = [body[0], body[i], *reversed(body[i + 1:]), *body[1:i]]
    path = tmp_path / "shuffled.txt"
    path.write_text("\n".join([*lines[:4], *shuffled]) + "\n")
    result = run(["tree", "show", "--from", path, "--depth", "0"])
    assert result.exit_code == 0
    answers = re.findall(r"^  (\dB\dW):", result.stdout, flags=re.M)
    assert answers == ["0B0W", "0B1W", "0B2W", "1B0W", "2B0W"]
    inner = re.findall(r"^    (\dB\dW): .* -> (\d\d)", result.stdout, flags=re.M)
    assert [a for a, g in inner if a != "0B1W" or g != "31"] == ["0B0W", "0B1W", "1B0W"]
    data = json.loads(run(["tree", "show", "--from", path, "--json"]).stdout)
    assert [a["answer"] for a in data["node"]["answers"]] == answers
    # the file itself is read as written: imported in file order, the same tree
    assert json.loads(run(["tree", "verify", path, "--json"]).stdout) == HAND


def test_usage_lines_name_the_file_plainly():
    for command in ("import", "verify"):
        result = run(["tree", command, "--help"])
        usage = next(ln for ln in result.output.splitlines() if "Usage:" in ln)
        assert "FILE [RULES]" in usage and "{" not in usage and "[[" not in usage, usage
    usage = next(ln for ln in run(["solve", "--help"]).output.splitlines() if "Usage:" in ln)
    assert "[OPTIONS] CLUES..." in usage, usage
