"""Whole trees without the full feedback table (`onestep.split_tree`): played part by part,
with each part's answers computed on the fly, a one-step strategy's tree is the one the
full table gives, checked on games where both fit, and against the published totals
with a table budget too small for the table."""

import json

import numpy as np
import pytest

from keypeg.onestep import split_tree
from keypeg.published import published
from keypeg.rules import Rules, find_rules
from keypeg.space import get_space
from keypeg.strategies import TABLE_STRATEGIES, evaluate, find_strategy

GAMES = [Rules(pegs=4, colors=6), Rules(pegs=3, colors=5, feedback="positional"),
         Rules(pegs=4, colors=7, repeats=False), Rules(pegs=3, colors=6, repeats=False,
                                                      feedback="positional")]


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.key)
@pytest.mark.parametrize("name", [*TABLE_STRATEGIES, "entropy-last", "parts-possible",
                                  "maxsize-possible"])
def test_split_trees_equal_full_table_trees(rules, name):
    space = get_space(rules)
    base, _, option = name.partition("-")
    strategy = find_strategy(base, tie="last" if option == "last" else "first",
                             possible_only=option == "possible")
    whole = strategy.tree(space)
    # a budget of 40 answers per code forces splitting down to small parts
    split = split_tree(strategy, space, budget=space.size * 40)
    assert split.first_guess == whole.first_guess
    assert (split.total, split.histogram, split.nodes) == (whole.total, whole.histogram,
                                                          whole.nodes)
    assert np.array_equal(split.depths(space), whole.depths(space))  # replayed, secret by secret
    assert sorted(split.guess.tolist()) == sorted(whole.guess.tolist())


def test_evaluate_walks_big_games_part_by_part(monkeypatch):
    """With a table budget below classic's table, evaluate no longer refuses: the totals
    are still the published ones."""
    monkeypatch.setenv("KEYPEG_TABLE_BUDGET", str(1024 * 1024))  # classic needs 1.6 MB
    from keypeg.space import CodeSpace

    space = CodeSpace(Rules(pegs=4, colors=6), disk_cache=False)
    assert not space.fits_table
    trees = evaluate([find_strategy(n) for n in TABLE_STRATEGIES], space)
    pub = published()["evaluate"]["classic"]["all_probes"]
    for name, tree in zip(TABLE_STRATEGIES, trees, strict=True):
        assert tree.total == pub[name]["total"] and tree.histogram == pub[name]["histogram"]


def test_games_past_the_split_limit_are_still_refused():
    from keypeg.errors import LimitExceededError

    with pytest.raises(LimitExceededError, match="full feedback table"):
        evaluate([find_strategy("entropy")], Rules(pegs=8, colors=8))
    with pytest.raises(LimitExceededError):  # not every strategy can split
        evaluate([find_strategy("entropy"), find_strategy("random")],
                 find_rules("codebreaker-4"))



@pytest.mark.parametrize("rules", [Rules(pegs=4, colors=10),
                                   Rules(pegs=4, colors=10, feedback="positional")],
                         ids=lambda r: r.key)
def test_possible_only_splits_past_the_small_spaces(rules):
    """Past 8,192 codes without the table, a possible-codes-only strategy scores one
    candidate per symmetry class (the table path scores every candidate): the same tree."""
    from keypeg.space import CodeSpace

    strategy = find_strategy("maxsize", possible_only=True)
    whole = strategy.tree(get_space(rules))
    space = CodeSpace(rules, budget=rules.size * 40, disk_cache=False)
    split = split_tree(strategy, space)
    assert not space.has_table
    assert (split.total, split.histogram, split.nodes) == (whole.total, whole.histogram,
                                                          whole.nodes)
    assert np.array_equal(split.guess, whole.guess)


def test_parts_solved_elsewhere_join_into_the_same_tree():
    """`split_tree(parts=...)` (how a cluster walks the first guess's parts): the parts
    solved by the callable, in answer order, join into the local tree."""
    rules = Rules(pegs=4, colors=6)
    space = get_space(rules)
    strategy = find_strategy("expsize")
    seen = []

    def parts(states):
        seen.extend(s.count for s in states)
        return [split_tree(strategy, space, s) for s in states]

    joined = split_tree(strategy, space, parts=parts)
    whole = strategy.tree(space)
    assert sum(seen) == space.size - 1  # every secret but the first guess
    for name in ("guess", "parent", "response", "depth", "size"):
        assert np.array_equal(getattr(joined, name), getattr(whole, name)), name


def test_a_recorded_walk_resumes_from_its_record(tmp_path, monkeypatch):
    """`split_tree(record=...)` keeps each part's subtree as it is finished: a walk killed
    midway (here: made to fail at its fifth part that fits the budget) and started again
    takes the parts done from the record, walks only the others, and gives the tree the
    full table gives; a third walk walks nothing. Another strategy has a record of its own."""
    from keypeg.onestep import OneStepStrategy, SplitRecord
    from keypeg.store import Store

    rules = Rules(pegs=4, colors=6)
    space = get_space(rules)
    strategy = find_strategy("entropy")
    whole = strategy.tree(space)
    store = Store(tmp_path / "split.db")
    walked = []  # the parts walked whole (those that fit the budget), run by run
    real = OneStepStrategy.tree
    kill_at = [None]

    def counted(self, rules_, state=None):
        walked.append(state)
        if len(walked) == kill_at[0]:
            raise RuntimeError("killed")
        return real(self, rules_, state)

    monkeypatch.setattr(OneStepStrategy, "tree", counted)
    budget = space.size * 40
    split_tree(strategy, space, budget=budget)  # unrecorded: how many parts a walk walks
    every = len(walked)
    assert every > 10
    walked.clear()
    kill_at[0] = 5
    with pytest.raises(RuntimeError, match="killed"):
        split_tree(strategy, space, budget=budget, record=SplitRecord(store, strategy, rules))
    walked.clear()
    kill_at[0] = None
    record = SplitRecord(store, strategy, rules)
    assert record.count() >= 4  # the four parts walked (and any part they finished)
    resumed = split_tree(strategy, space, budget=budget, record=record)
    assert 0 < len(walked) <= every - 4 and record.taken >= 1
    for name in ("guess", "parent", "response", "depth", "size"):
        assert np.array_equal(getattr(resumed, name), getattr(whole, name)), name
    assert resumed.strategy == whole.strategy
    walked.clear()
    done = SplitRecord(store, strategy, rules)
    third = split_tree(strategy, space, budget=budget, record=done)
    assert walked == [] and done.taken > 0  # nothing walked: all from the record
    assert np.array_equal(third.depths(space), whole.depths(space))
    assert SplitRecord(store, find_strategy("maxsize"), rules).count() == 0


def test_big_walks_script_writes_replayed_totals_and_resumes(tmp_path):
    """`scripts/big_walks.py`: a walk's summary (the published classic total), its seconds
    beside the record, and a second run taking the root's parts from the record."""
    import json

    from tests.scripts import load_script

    script = load_script("big_walks")
    db = tmp_path / "walks.sqlite"
    row = script.walk(db, "classic", "expsize", workers=2)
    pub = published()["evaluate"]["classic"]["all_probes"]["expsize"]
    assert (row["total"], row["histogram"]) == (pub["total"], pub["histogram"])
    assert row["replayed_total"] == pub["total"] and row["taken_from_record"] == 0
    side = script.seconds_file(db, "p4-c6", "expsize")
    (run,) = json.loads(side.read_text()).values()
    assert len(run) == 2 and row["seconds"] == run[0] and row["cpu_seconds"] == run[1] >= 0
    again = script.walk(db, "classic", "expsize")
    assert again["total"] == pub["total"] and again["taken_from_record"] > 0
    assert again["runs"] == 2


@pytest.mark.parametrize("rules", GAMES[:2], ids=lambda r: r.key)
def test_parts_walked_on_threads_join_into_the_same_tree(rules, tmp_path):
    """`split_tree(workers=2)`: the first guess's parts walked on two threads (biggest
    first, recorded) join into the tree one thread gives, node for node."""
    from keypeg.onestep import SplitRecord
    from keypeg.store import Store

    space = get_space(rules)
    strategy = find_strategy("parts")
    whole = strategy.tree(space)
    reported = []
    record = SplitRecord(Store(tmp_path / "r.db"), strategy, rules)
    threaded = split_tree(strategy, space, budget=space.size * 40, workers=2, record=record,
                          on_part=lambda done, total: reported.append((done, total)))
    for name in ("guess", "parent", "response", "depth", "size"):
        assert np.array_equal(getattr(threaded, name), getattr(whole, name)), name
    parts = len(reported)
    assert parts > 2 and reported[-1] == (parts, parts)
    assert record.count() >= parts


def test_one_strategy_past_the_budget_walks_on_every_worker(monkeypatch):
    """evaluate() of one strategy in a game past the table budget: its first guess's parts
    go to the worker threads (the published classic total still)."""
    import keypeg.onestep as onestep
    from keypeg.space import CodeSpace

    monkeypatch.setenv("KEYPEG_TABLE_BUDGET", str(1024 * 1024))
    shared = []
    real = onestep._parts_on_threads

    def spy(*args, **kwargs):
        shared.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(onestep, "_parts_on_threads", spy)
    space = CodeSpace(Rules(pegs=4, colors=6), disk_cache=False)
    (tree,) = evaluate([find_strategy("maxsize")], space, workers=2)
    pub = published()["evaluate"]["classic"]["all_probes"]["maxsize"]
    assert (tree.total, tree.histogram) == (pub["total"], pub["histogram"])
    assert shared == [2]
    shared.clear()
    evaluate([find_strategy("maxsize"), find_strategy("entropy")], space, workers=2)
    assert shared == []  # (two strategies: a thread each)


def test_evaluate_with_a_checkpoint_walks_past_the_split_limit_and_resumes(tmp_path,
                                                                          monkeypatch):
    """`evaluate(checkpoint=...)`: a game past the walks made on request (here classic, with
    the limit lowered below its 1,296 codes and a table budget below its table) is walked
    part by part with every part kept in the checkpoint, to the published totals, the first
    guess's parts reported; started again, it takes every part from the checkpoint (no
    part is walked: walking one fails)."""
    import keypeg.strategy as strategy_module
    from keypeg.errors import KeypegError, LimitExceededError
    from keypeg.game import GameState
    from keypeg.onestep import OneStepStrategy
    from keypeg.space import CodeSpace

    monkeypatch.setenv("KEYPEG_TABLE_BUDGET", str(1024 * 1024))
    monkeypatch.setattr(strategy_module, "SPLIT_MAX_CODES", 1000)
    space = CodeSpace(Rules(pegs=4, colors=6), disk_cache=False)
    names = ["entropy", "maxsize"]
    with pytest.raises(LimitExceededError, match="full feedback table"):
        evaluate([find_strategy(n) for n in names], space)
    db = tmp_path / "walks.sqlite"
    reported: dict[int, list[tuple[int, int]]] = {0: [], 1: []}
    trees = evaluate([find_strategy(n) for n in names], space, checkpoint=db,
                     on_part=lambda i, done, total: reported[i].append((done, total)))
    pub = published()["evaluate"]["classic"]["all_probes"]
    for name, tree in zip(names, trees, strict=True):
        assert (tree.total, tree.histogram) == (pub[name]["total"], pub[name]["histogram"])
    for i in (0, 1):
        assert len(reported[i]) > 2 and reported[i][-1] == (len(reported[i]),) * 2

    def killed(self, rules, state=None):
        raise RuntimeError("a part was walked again")

    monkeypatch.setattr(OneStepStrategy, "tree", killed)
    again = evaluate([find_strategy(n) for n in names], space, checkpoint=str(db))
    for name, tree in zip(names, again, strict=True):
        assert tree.total == pub[name]["total"]
        assert np.array_equal(tree.depths(space),
                              trees[names.index(name)].depths(space))
    with pytest.raises(RuntimeError, match="walked again"):  # (the patch bites elsewhere)
        evaluate([find_strategy("parts")], space, checkpoint=db)
    # what a checkpoint cannot keep
    with pytest.raises(KeypegError, match="state"):
        evaluate([find_strategy("entropy")], space, state=GameState.start(space),
                  checkpoint=db)
    with pytest.raises(KeypegError, match="random .* not walked part by part"):
        evaluate([find_strategy("random")], space, checkpoint=db)
    with pytest.raises(KeypegError, match="checkpoint must be the path"):
        evaluate([find_strategy("entropy")], space, checkpoint=42)
    with pytest.raises(KeypegError, match="cannot be used as keypeg's SQLite database \\(a "
                                          "folder, not a file\\)"):
        evaluate([find_strategy("entropy")], space, checkpoint=tmp_path)
    monkeypatch.setattr(strategy_module, "CHECKPOINT_SPLIT_MAX_CODES", 1000)
    with pytest.raises(LimitExceededError, match="1,296 codes is too big"):
        evaluate([find_strategy("entropy")], space, checkpoint=db)


def test_exact_walks_recorded_ahead_of_time_are_told_as_recorded():
    """MM(6,9)'s entropy walk (hours) ships as a summary: `recorded_walk` gives it for the
    strategy with its default options only, and `keypeg evaluate` prints it (labelled
    recorded) instead of refusing; its histogram counts every secret once and sums to its
    total, the replayed one."""
    from typer.testing import CliRunner

    from keypeg.cli import app
    from keypeg.onestep import recorded_walk

    mm69 = find_rules("mm-6-9")
    row = recorded_walk(find_strategy("entropy"), mm69)
    assert row is not None
    assert sum(row["histogram"]) == mm69.size == 9**6
    total = sum((i + 1) * n for i, n in enumerate(row["histogram"]))
    assert total == row["total"] == row["replayed_total"] and row["worst"] == 9
    assert row["mean"] == round(total / 9**6, 4)
    for other in (find_strategy("entropy", possible_only=True),
                  find_strategy("entropy", tie="last"), find_strategy("random")):
        assert recorded_walk(other, mm69) is None
    assert recorded_walk(find_strategy("entropy"), find_rules("classic")) is None

    runner = CliRunner()
    result = runner.invoke(app, ["evaluate", "--rules", "mm-6-9", "-s", "entropy", "--json"])
    assert result.exit_code == 0, result.output
    (out,) = json.loads(result.stdout)
    assert (out["total"], out["histogram"], out["first_guess"]) == (
        row["total"], row["histogram"], row["first_guess"])
    assert out["recorded"]["replayed_total"] == total
    shown = runner.invoke(app, ["evaluate", "--rules", "mm-6-9", "-s", "entropy"])
    assert shown.exit_code == 0 and "as recorded" in shown.stdout
    assert f"{total:,}" in shown.stdout
    refused = runner.invoke(app, ["evaluate", "--rules", "mm-6-9", "-s", "entropy",
                                  "--possible-only"])
    assert refused.exit_code == 2 and "--checkpoint FILE" in refused.output
    # every strategy walked: all five one-step strategies, each summing over every secret
    names = ["consistent", "entropy", "expsize", "maxsize", "parts"]
    for name in names:
        row = recorded_walk(find_strategy(name), mm69)
        assert row is not None and sum(row["histogram"]) == 9**6, name
        assert sum((i + 1) * n for i, n in enumerate(row["histogram"])) == row["total"]
    everything = runner.invoke(app, ["evaluate", "--rules", "mm-6-9", "--json"])
    assert everything.exit_code == 0 and len(json.loads(everything.stdout)) == 5
    # a strategy not recorded is refused, naming those that are (with default options)
    refused = runner.invoke(app, ["evaluate", "--rules", "mm-6-9", "-s", "random"])
    message = " ".join(refused.output.split())
    assert refused.exit_code == 2 and len(message) < 400, message
    assert f"Known exactly (default options): -s {','.join(names)}." in message
    saved = runner.invoke(app, ["evaluate", "--rules", "mm-6-9", "-s", "entropy",
                                "--save-tree", "t.json"])
    assert saved.exit_code == 2 and "not kept" in saved.output


def test_evaluate_command_checkpoint(tmp_path):
    """`keypeg evaluate --checkpoint FILE`: the published total, kept in FILE (parts in
    its table); clear refusals for what it cannot do."""
    import sqlite3

    from typer.testing import CliRunner

    from keypeg.cli import app

    runner = CliRunner()
    db = tmp_path / "walk.sqlite"
    result = runner.invoke(app, ["evaluate", "-s", "expsize", "--checkpoint", str(db),
                                 "--json"])
    assert result.exit_code == 0, result.output
    pub = published()["evaluate"]["classic"]["all_probes"]["expsize"]
    assert json.loads(result.stdout)[0]["total"] == pub["total"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM parts").fetchone()[0] > 10
    for args, words in ((["--sample", "5"], "leave out --sample"),
                        (["--prior", "pin"], "leave out --prior"),
                        (["--rules", "mm-8-8"], "too big to walk part by part")):
        bad = runner.invoke(app, ["evaluate", "-s", "entropy", "--checkpoint", str(db),
                                  *args])
        assert bad.exit_code == 2 and words in bad.output, (args, bad.output)


def test_the_sampled_lab_names_the_exact_walks_recorded_ahead_of_time():
    """The page's Lab of MM(6,9) is sampled (a request cannot walk it), and says the exact
    means keypeg walked ahead of time, as rows of their own and in its note; a game
    without such walks is left as it was."""
    from keypeg.labs import with_recorded
    from keypeg.onestep import recorded_walk

    mm69 = find_rules("mm-6-9")
    sampled = {"exact": False, "rows": [{"strategy": n} for n in TABLE_STRATEGIES],
               "note": "approximate: each strategy played 5 random secrets."}
    lab = with_recorded(sampled, mm69)
    entropy = recorded_walk(find_strategy("entropy"), mm69)
    assert {"strategy": "entropy", "total": entropy["total"]}.items() <= {
        k: v for row in lab["recorded"] if row["strategy"] == "entropy"
        for k, v in row.items()}.items()
    assert f"entropy {entropy['mean']:.4f}" in lab["note"] and "531,441" in lab["note"]
    assert lab["exact"] is False and lab["rows"] == sampled["rows"]
    assert with_recorded(sampled, find_rules("codebreaker-4")) == sampled
    from keypeg.labs import lab as preset_lab  # the page's: MM(6,9)'s sampled lab ships

    shipped = preset_lab(mm69)
    assert shipped["exact"] is False and shipped["shipped"] is True
    assert f"entropy {entropy['mean']:.4f}" in shipped["note"]
    assert {r["strategy"]: r["total"] for r in shipped["recorded"]}["entropy"] == (
        entropy["total"])


def test_a_checkpointed_evaluation_shows_the_subtrees_kept(tmp_path, monkeypatch):
    """`keypeg evaluate --checkpoint`'s progress counts each strategy's subtrees in the
    checkpoint every few seconds (a strategy that does not split has none)."""
    import time

    import keypeg.cli.evaluate as command
    from keypeg.onestep import SplitRecord
    from keypeg.store import Store

    rules = Rules(pegs=4, colors=6)
    space = get_space(rules)
    strategy = find_strategy("entropy")
    db = tmp_path / "w.sqlite"
    record = SplitRecord(Store(db), strategy, rules)
    split_tree(strategy, space, budget=space.size * 40, record=record)
    assert record.count() > 10
    monkeypatch.setattr(command, "CHECKPOINT_WATCH_SECONDS", 0.05)
    kept = ["", ""]
    shown: list[int] = []
    with command._watch_checkpoint(db, [strategy, find_strategy("random")], rules, kept,
                                   shown.append):
        deadline = time.monotonic() + 10
        while not shown and time.monotonic() < deadline:
            time.sleep(0.02)
    assert kept == [f"{record.count():,} subtrees kept in w.sqlite", ""]
    assert 0 in shown and 1 not in shown


def test_the_big_walk_check_compares_nodes_with_the_naive_chooser(tmp_path):
    """`scripts/check_big_walk.py` (run on MM(6,9)'s trees, rebuilt from a walk's
    checkpoint): on classic, entropy's tree agrees with the naive chooser at every node it
    draws, and maxsize's tree checked as entropy's is caught."""
    from tests.scripts import load_script

    script = load_script("check_big_walk")
    space = get_space(find_rules("classic"))
    for name in ("entropy", "maxsize"):
        find_strategy(name).tree(space).save(tmp_path / f"{name}.json")
    assert script.check(tmp_path / "entropy.json", "classic", "entropy", 6, seed=1) == [
        True] * 6
    assert not all(script.check(tmp_path / "maxsize.json", "classic", "entropy", 6, seed=1))
