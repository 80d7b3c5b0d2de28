"""The README's numbers are generated from docs/stats.json, which must agree with the
published numbers and (slow) with a fresh computation."""

import importlib.util
import json
import re
from pathlib import Path

import pytest

from keypeg.published import published

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("stats_script", ROOT / "scripts" / "stats.py")
stats_script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(stats_script)
STATS = json.loads((ROOT / "docs" / "stats.json").read_text())
PUB = published()


def test_readme_blocks_are_generated_from_stats():
    text = (ROOT / "README.md").read_text()
    assert stats_script.render_readme(text, STATS) == text, "run python scripts/stats.py readme"
    for name in stats_script.RENDERERS:
        assert f"<!-- stats:{name} -->" in text


def test_readme_commands_come_first():
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    assert blocks[1].strip() == "scripts/test"
    assert (ROOT / ".ci" / "run").read_text().count("scripts/test") == 1


def test_stats_agree_with_published():
    ev = STATS["evaluation"]
    pub = PUB["evaluate"]
    for row in ev["classic"]["all_probes"]:
        want = pub["classic"]["all_probes"][row["strategy"]]
        assert (row["first_guess"], row["total"], row["histogram"]) == (
            want["first_guess"], want["total"], want["histogram"])
    for row in ev["classic"]["possible_only"]:
        assert row["total"] == pub["classic"]["possible_only"][row["strategy"]]["total"]
    for row in ev["mm47"]["all_probes"]:
        if row["strategy"] != "consistent":
            assert row["total"] == pub["mm47"]["totals"][row["strategy"]]
    assert {h["first_guess"] for h in STATS["consistent_openings"]["hits"]} == {"4567", "4321"}
    for key in ("classic", "mm47"):
        study, want = STATS["entropy_study"][key], PUB["entropy_study"][key]
        assert study["tied"] == want["tied"] and study["decisions"] == want["decisions"]
        assert {s["spelling"]: [s["total"], s["differing"]] for s in study["spellings"]} == (
            want["spellings"])
    for row in STATS["mm58"]["rows"]:
        if row["strategy"] in pub["mm58"]["ville_mean"]:
            assert round(row["mean"], 3) == pub["mm58"]["ville_mean"][row["strategy"]]


@pytest.mark.slow
@pytest.mark.parametrize("section", ["evaluation", "entropy_study"])
def test_stats_come_from_the_code(section):
    assert stats_script.SECTIONS[section]() == STATS[section]


def test_the_library_block_gives_the_values_its_comments_say():
    """Each line of the README's Library block with a comment is evaluated and its repr
    compared with the comment ('...' stands for the rest of a number or a list): the block
    showed candidates that are not candidates at all ('1213' after 1122 = 1B1W)."""
    text = (ROOT / "README.md").read_text()
    block = text.split("## Library", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    statement, checked = "", 0
    for line in block.splitlines():
        code, _, comment = line.partition("  # ")
        statement += code + "\n"
        if statement.count("[") != statement.count("]") or (
                statement.count("(") != statement.count(")")):
            continue  # the expression goes on on the next line
        if comment:
            got = repr(eval(statement.strip(), namespace))  # noqa: S307 - our own README
            pattern = ".*".join(re.escape(part) for part in comment.strip().split("..."))
            assert re.fullmatch(pattern, got), f"{statement.strip()}: {got}, not {comment}"
            checked += 1
        elif statement.strip():
            exec(statement, namespace)  # noqa: S102 - our own README
        statement = ""
    assert checked >= 6


def test_every_api_route_is_in_the_readmes_table():
    """The README's API table had left out GET /api/watch/secret: every route the OpenAPI
    document lists (but the documentation pages) has a row, and every row a route."""
    from keypeg.store import Store
    from keypeg.web.app import create_app

    text = (ROOT / "README.md").read_text()
    rows = {(m, re.sub(r"\{[^}]*\}", "{}", p)) for m, p in
            re.findall(r"^\| `(GET|POST|PUT|DELETE) (/api/[^`?\s]*)", text, flags=re.M)}
    app = create_app(Store(":memory:"))
    routes = {(method.upper(), re.sub(r"\{[^}]*\}", "{}", path))
              for path, ops in app.openapi()["paths"].items() if path.startswith("/api/")
              for method in ops}
    assert rows == routes, (sorted(routes - rows), sorted(rows - routes))
