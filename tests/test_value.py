"""The exact game value (keypeg.value, `keypeg value`): tiny games against a brute-force
linear program over every pure codebreaker strategy (tests/naive.py), both halves of the
certificate checked independently, and seed 004's 5,600/1,290 for classic."""

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from keypeg.classes import secret_classes
from keypeg.codemakers import find_codemaker
from keypeg.published import published
from keypeg.rules import Rules, find_rules
from keypeg.space import get_space
from keypeg.value import game_value, shipped_values, stored_value

from . import naive
from .test_cli import run

PUBLISHED = published()

TINY = [
    Rules(pegs=2, colors=2),
    Rules(pegs=3, colors=2),
    Rules(pegs=2, colors=3),
    Rules(pegs=2, colors=2, feedback="positional"),
    Rules(pegs=3, colors=2, feedback="positional"),
    Rules(pegs=2, colors=3, feedback="positional"),
    Rules(pegs=2, colors=3, repeats=False),
    Rules(pegs=3, colors=3, repeats=False),
]


def _codes(rules):
    return [tuple(int(x) for x in row) for row in get_space(rules).codes]


@pytest.mark.parametrize("rules", TINY, ids=lambda r: r.key)
def test_tiny_games_equal_the_brute_force_linear_program(rules):
    v = game_value(rules)
    assert v.certified
    expected = naive.naive_game_value(rules.pegs, rules.colors, rules.feedback, rules.repeats)
    assert abs(float(v.value) - expected) < 1e-9


def _independent_classes(rules):
    """Secret classes for black/white answers: the multiset of colour counts."""
    return [tuple(sorted(Counter(c).values(), reverse=True)) for c in _codes(rules)]


@pytest.mark.parametrize("rules", [Rules(pegs=3, colors=3), Rules(pegs=2, colors=4),
                                   Rules(pegs=4, colors=2)], ids=lambda r: r.key)
def test_both_halves_of_the_certificate_hold(rules):
    """The codemaker's mixture holds every codebreaker to the value (its weighted optimum,
    by brute force) and the codebreaker's mixture of symmetrised trees never needs more
    (its class averages, by replaying each tree over every secret)."""
    v = game_value(rules)
    assert v.certified
    pattern = _independent_classes(rules)
    sizes = Counter(pattern)
    ours = secret_classes(rules)
    by_label = dict(zip(ours.labels, v.codemaker, strict=True))
    # the library's classes are the same partition as the independent one
    assert sorted(sizes.values()) == sorted(ours.sizes)
    labels = {p: ours.labels[int(ours.of[i])] for i, p in enumerate(pattern)}
    assert len(set(labels.values())) == len(sizes)
    assert sum(v.codemaker) == 1 and all(p >= 0 for p in v.codemaker)
    codes = _codes(rules)
    weight = {c: float(by_label[labels[p]]) / sizes[p] for c, p in zip(codes, pattern,
                                                                          strict=True)}
    lower = naive.naive_weighted_optimal(codes, codes, rules.feedback, weight)
    assert abs(lower - float(v.value)) < 1e-9
    # the codebreaker: every class average of the mixture is at most the value, and the
    # classes the codemaker plays get exactly the value
    assert sum(s for s, _ in v.codebreaker) == 1
    space = get_space(rules)
    cost = {p: Fraction(0) for p in sizes}
    for s, col in v.codebreaker:
        depths = col.tree.depths(space)
        for i, p in enumerate(pattern):
            cost[p] += s * Fraction(int(depths[i]), sizes[p])
    assert max(cost.values()) == v.value
    for p in sizes:
        if by_label[labels[p]] > 0:
            assert cost[p] == v.value


@pytest.mark.slow
def test_classic_reproduces_seed_004_and_wiener():
    """MM(4,6) = 5,600/1,290 with the codemaker uniform over the 1,290 codes of two or more
    colours; under the optimal codebreaker a one-colour secret takes 25/6 guesses."""
    published = PUBLISHED["optimal"]["classic"]["weighted_two_or_more_colours"]
    v = game_value(Rules(pegs=4, colors=6))
    assert v.certified
    assert v.value == Fraction(published["total"], published["secrets"])
    mixture = dict(zip(v.labels, v.codemaker, strict=True))
    sizes = dict(zip(v.labels, v.sizes, strict=True))
    assert mixture["AAAA"] == 0
    for label in ("AAAB", "AABB", "AABC", "ABCD"):  # uniform over the 1,290 codes
        assert mixture[label] == Fraction(sizes[label], published["secrets"])
    game = PUBLISHED["optimal"]["classic"]["game_value"]
    costs = dict(zip(v.labels, v.class_costs(), strict=True))
    assert costs["AAAA"] == Fraction(game["one_colour_cost"])
    out = v.to_dict()
    assert out["value"] == "560/129" and out["mean"] == pytest.approx(5600 / 1290)


def test_shipped_values_are_certified_and_match_a_fresh_computation():
    shipped = shipped_values()
    assert len(shipped) >= 30  # every ledger cell reached
    classic = shipped["p4-c6"]
    published = PUBLISHED["optimal"]["classic"]["weighted_two_or_more_colours"]
    assert Fraction(classic["value"]) == Fraction(published["total"], published["secrets"])
    for key, rules in (("p3-c3", Rules(pegs=3, colors=3)), ("p2-c5", Rules(pegs=2, colors=5)),
                       ("p4-c4", Rules(pegs=4, colors=4))):
        assert shipped[key]["certified"]
        fresh = game_value(rules).to_dict()
        assert shipped[key]["value"] == fresh["value"]
        assert shipped[key]["codemaker"] == fresh["codemaker"]
    for key, row in shipped.items():
        assert row["certified"], key
        assert sum(Fraction(c["probability"]) for c in row["codemaker"]) == 1, key
        assert sum(Fraction(c["probability"]) for c in row["codebreaker"]) == 1, key
        # the codemaker's classes are all held to the value, none above it
        costs = [Fraction(c["codebreaker_cost"]) for c in row["codemaker"]]
        assert max(costs) == Fraction(row["value"]), key
    # a no-repeat game has one class (every code is a relabelling of every other)
    assert len(shipped["p4-c10-norep"]["codemaker"]) == 1


def test_the_game_codemaker_draws_from_the_stored_mixture():
    rules = find_rules("classic")
    assert stored_value(rules).codemaker[0] == 0  # AAAA never
    classes = secret_classes(rules)
    drawn = [find_codemaker("game", rules, seed).secret.index for seed in range(300)]
    assert all(classes.labels[int(classes.of[int(i)])] != "AAAA" for i in drawn)
    counts = Counter(classes.labels[int(classes.of[int(i)])] for i in drawn)
    assert counts["AABC"] > counts["ABCD"] > counts["AAAB"] > 0  # 720 > 360 > 120 codes


# ----------------------------------------------------------------------------- CLI
def test_value_cli_json_form():
    out = run(["value", "--pegs", "2", "--colors", "3", "--json", "--recompute"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["rules"] == "MM(2,3)"
    assert [c["class"] for c in data["codemaker"]] == ["AA", "AB"]
    assert {"class", "codes", "probability"} <= set(data["codemaker"][0])
    assert [c["codes"] for c in data["codemaker"]] == [3, 6]
    assert all("/" in c["probability"] for c in data["codemaker"])
    assert all({"probability", "first_guess", "costs"} <= set(c) for c in data["codebreaker"])
    assert isinstance(data["seconds"], float | int) and data["certified"] is True
    p, q = (int(x) for x in data["value"].split("/"))
    assert abs(p / q - naive.naive_game_value(2, 3)) < 1e-9
    assert data["mean"] == pytest.approx(p / q)


def test_value_cli_text_and_shipped_and_errors():
    out = run(["value", "--rules", "classic"])
    assert out.exit_code == 0, out.output
    assert "560/129" in out.output and "certified" in out.output
    assert "shipped" in out.output and "AAAA" in out.output and "25/6" in out.output
    # the class the codemaker never picks (AAAA, as the page writes it), not "0/1 0.0000"
    aaaa = next(line for line in out.output.splitlines() if line.strip().startswith("AAAA"))
    assert aaaa.split()[:3] == ["AAAA", "6", "never"] and " 0/1 " not in out.output
    out = run(["value", "--rules", "classic", "--max-seconds", "0.3", "--recompute"])
    assert out.exit_code == 3 and "within 0.3 s" in out.output  # out of time: 3
    out = run(["value", "--max-seconds", "-1"])
    assert out.exit_code == 2 and "positive number" in out.output


def test_values_are_reduced_fractions():
    for row in shipped_values().values():
        p, q = (int(x) for x in row["value"].split("/"))
        assert np.gcd(p, q) == 1 and q >= 1


def test_the_readme_table_is_the_shipped_values():
    stats = json.loads((Path(__file__).resolve().parent.parent / "docs" / "stats.json")
                       .read_text())
    shipped = shipped_values()
    cells = stats["values"]["cells"]
    assert len(cells) == len(shipped)
    for cell in cells:
        assert cell["certified"] and shipped[cell["key"]]["value"] == cell["value"]
    published = PUBLISHED["optimal"]["classic"]["weighted_two_or_more_colours"]
    assert Fraction(shipped["p4-c6"]["value"]) == Fraction(published["total"],
                                                           published["secrets"])


def test_value_cli_keeps_the_exact_fractions_on_a_narrow_terminal(monkeypatch):
    """rich cut the exact probabilities to "34899/5526…" on an 80-column terminal."""
    from keypeg.cli import common

    monkeypatch.setattr(common.console, "width", 60)
    data = json.loads(run(["value", "--pegs", "4", "--colors", "5", "--json"]).stdout)
    text = run(["value", "--pegs", "4", "--colors", "5"]).stdout
    assert "…" not in text
    fractions = [row["probability"] for row in data["codebreaker"] + data["codemaker"]]
    assert any(len(f) >= 12 for f in fractions)  # wide enough to have been cut
    for fraction in fractions:  # (as the header writes them: 34,899/5,526)
        p, q = (int(x) for x in fraction.split("/"))
        assert (f"{p:,}/{q:,}" if p else "never") in text, fraction


def test_a_long_first_round_says_where_its_search_stands():
    """MM(5,8)'s first round (an optimal search) said nothing for minutes. (MM(4,8): its
    optimal search takes seconds; MM(4,7)'s came to finish within the time allowed.)"""
    from keypeg.errors import LimitExceededError

    lines: list[str] = []
    with pytest.raises(LimitExceededError, match="0 rounds"):
        game_value(Rules(pegs=4, colors=8), time_limit=1.5, progress=lines.append)
    assert lines and all(line.startswith("round 1, the codebreaker's best reply: ")
                         for line in lines), lines
    assert " sets searched, " in lines[-1] and lines[-1].endswith(" s")
    assert max(len(f"* MM(4,8): {line}") for line in lines) <= 80  # the live status line


def test_a_game_value_out_of_memory_says_so_not_that_time_ran_out():
    """`match --codemaker game` on codebreaker-4 said the value 'was not found within 60 s
    (0 rounds ...); allow more time' after a second: the table's size stopped it, and more
    time would not help."""
    from keypeg.errors import LimitExceededError, TimeLimitError
    from keypeg.rules import find_rules
    from keypeg.value import game_value

    with pytest.raises(LimitExceededError, match="full feedback table") as caught:
        game_value(find_rules("codebreaker-4"), time_limit=60)
    assert not isinstance(caught.value, TimeLimitError)


@pytest.mark.slow
def test_a_game_needing_more_than_sixty_rounds_is_certified():
    """MM(4,6) with green/amber/gray answers needs 65 rounds: it failed as 'did not converge
    in 60 rounds' (a 422, as if the input were wrong), and an earlier round's rounded
    weights left it uncertified although the last reply, the one the lower bound rests on,
    was exact. Both halves are checked apart: the codemaker's mixture as whole-number
    weights in a fresh weighted optimum, and the codebreaker's trees replayed."""
    from math import lcm

    from keypeg.solver import solve_optimal

    rules = Rules(pegs=4, colors=6, feedback="positional")
    v = game_value(rules)
    assert v.rounds > 60 and v.certified and v.note is None
    ours = secret_classes(rules)
    per_code = [v.codemaker[int(c)] / ours.sizes[int(c)] for c in ours.of]
    scale = lcm(*(f.denominator for f in per_code))
    weights = np.array([int(f * scale) for f in per_code])
    assert weights.max() < 2**20  # small enough to be used exactly
    lower = solve_optimal(rules, weights=weights)
    assert Fraction(int(lower.weighted_total), scale) == v.value
    space = get_space(rules)
    cost = np.zeros(len(ours.sizes), dtype=object)
    for s, col in v.codebreaker:
        depths = col.tree.depths(space)
        for c in range(len(ours.sizes)):
            cost[c] += s * Fraction(int(depths[ours.of == c].sum()), ours.sizes[c])
    assert max(cost) == v.value


def test_value_cli_refuses_a_cap_and_a_game_too_big_at_once():
    """--max-guesses was left out unsaid (MM(3,3) within 1 guess: 73/27, certified), and
    mm-8-8 ran 54 s before saying it was out of time."""
    out = run(["value", "--pegs", "3", "--colors", "3", "--max-guesses", "1"])
    assert out.exit_code == 2 and "leave out --max-guesses" in out.output
    out = run(["value", "--rules", "classic", "--max-guesses", "4"])
    assert out.exit_code == 2 and "no limit on guesses" in out.output
    assert run(["value", "--rules", "classic"]).exit_code == 0  # (its own 10 rows)
    from keypeg import space

    def no_space(*args, **kwargs):
        raise AssertionError("built a code space")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(space.CodeSpace, "__init__", no_space)
        out = run(["value", "--rules", "mm-8-8", "--max-seconds", "2"])
    assert out.exit_code == 2 and "over the" in out.output and "budget" in out.output


def test_value_cli_writes_fractions_with_separators():
    out = run(["value", "--rules", "mini"])
    assert "1,629/460 = 3.5413" in out.output and "1629/460" not in out.output


def test_a_value_computed_once_is_kept_for_the_cli_and_the_page(tmp_path, monkeypatch):
    """keypeg value solved an unshipped game again at every asking (MM(3,11): 15.6 s each
    time), and the page, whose 413 says to compute it with keypeg value, never saw the
    result. Both now keep a certified value in the store under one key."""
    from fastapi.testclient import TestClient

    import keypeg.web.service as service_module
    from keypeg.store import Store
    from keypeg.web.app import create_app

    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    game = ["--pegs", "2", "--colors", "4", "--positional"]
    assert Rules(2, 4, feedback="positional").key not in shipped_values()
    monkeypatch.setattr(service_module, "LIVE_VALUE_CODES", 1)  # the page computes nothing
    page = TestClient(create_app(Store(tmp_path / "k.db")))
    asked = {"rules": "MM(2,4) [positional]"}
    assert page.get("/api/value", params=asked).status_code == 413
    first = json.loads(run(["value", *game, "--json"]).stdout)
    assert first["certified"] and "cached" not in first and first["source"] == "computed"
    again = run(["value", *game])
    assert "kept in the store" in again.stdout and first["value"] in again.stdout
    kept = json.loads(run(["value", *game, "--json"]).stdout)
    assert kept["cached"] is True and kept["value"] == first["value"]
    assert kept["source"] == "kept"
    shipped = json.loads(run(["value", "--pegs", "3", "--colors", "4", "--json"]).stdout)
    assert shipped["source"] == "shipped" and shipped["value"] == "219/68"  # (README table)
    seen = page.get("/api/value", params=asked)
    assert seen.status_code == 200 and seen.json()["value"] == first["value"]
    # a whole value is written as one: 2 guesses, not "2/1 = 2.000000"
    assert "MM(2,2)[/]" not in (text := run(["value", "--pegs", "2", "--colors", "2"]).stdout)
    assert "MM(2,2): 2 guesses" in text
    # the page names keypeg value only for a game keypeg value can solve
    refused = page.get("/api/value", params={"rules": "mm-8-8"})
    assert refused.status_code == 413 and "keypeg value" not in refused.json()["detail"]


def test_the_codebreakers_trees_are_saved_and_replay_to_their_costs(tmp_path, monkeypatch):
    """--json gave each tree's first guess and costs only, so the optimal codebreaker could
    not be replayed (review). --save-trees writes them; each replays, over every secret,
    to the mean guesses per class the JSON gives (classes by hand: AA, AB)."""
    from keypeg.tree import DecisionTree

    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    refused = run(["value", "--pegs", "2", "--colors", "3", "--save-trees", str(tmp_path)])
    assert refused.exit_code == 2 and "add --recompute" in refused.output
    out = run(["value", "--pegs", "2", "--colors", "3", "--recompute", "--json",
               "--save-trees", str(tmp_path)])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)["codebreaker"]
    assert len(rows) >= 1
    space = get_space(Rules(2, 3))
    for row in rows:
        tree = DecisionTree.load(row["tree"])
        depth = tree.depths()
        by_class: dict[str, list[int]] = {"AA": [], "AB": []}
        for code in range(space.size):
            a, b = space.text(code)
            by_class["AA" if a == b else "AB"].append(int(depth[code]))
        assert {k: Fraction(sum(v), len(v)) for k, v in by_class.items()} == {
            k: Fraction(v) for k, v in row["costs"].items()}
