"""The tree explorer's API (/api/tree, /api/tree/path) and the Lab's first-guess table
(/api/openings), through FastAPI's test client.

Every node is checked against the library's tree played over the secrets by the tests
themselves: the secrets reaching a node are found by filtering along its path, their
numbers of guesses by replaying the tree (`DecisionTree.depths`), a secret's path by
scoring it against each guess; whole-tree totals against the published numbers."""

from __future__ import annotations

import functools
import random
from collections import deque

import numpy as np
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

import keypeg.solver.cached as cached_module
import keypeg.web.service as service_module
from keypeg.explorer import explorer_tree
from keypeg.feedback import score
from keypeg.limits import MAX_ECHO
from keypeg.published import published
from keypeg.rules import Rules, find_rules
from keypeg.solver.cached import shipped_tree
from keypeg.solver.cells import stored_cells
from keypeg.space import get_space
from keypeg.store import Store
from keypeg.strategies import TABLE_STRATEGIES, find_strategy
from keypeg.web.app import create_app
from tests.test_api_fuzz import FUZZ, check, text

PUB = published()
CLASSIC = PUB["evaluate"]["classic"]["all_probes"]
OPTIMAL = PUB["optimal"]["classic"]
RULES = find_rules("classic")
SPACE = get_space(RULES)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    return TestClient(create_app(Store(tmp_path_factory.mktemp("tree") / "web.db")))


def library_tree(strategy: str, rules: Rules = RULES):
    if strategy == "optimal":
        tree = shipped_tree(rules.pegs, rules.colors)
        assert tree is not None
        return tree
    return find_strategy(strategy).tree(rules)


class Reference:
    """What a node should show, worked out from the library's tree by replaying it."""

    def __init__(self, strategy: str, rules: Rules = RULES) -> None:
        self.tree = library_tree(strategy, rules)
        self.space = get_space(rules)
        self.depths = self.tree.depths(self.space)  # guesses needed, per secret
        self.child = self.tree.children()

    def secrets(self, path: list[dict]) -> np.ndarray:
        """The secrets that get the answers of `path` (breadcrumbs from the API)."""
        cands = self.space.all()
        for here, there in zip(path, path[1:], strict=False):
            cands = self.space.filter(cands, self.space.index(here["guess"]),
                                      self.space.response_index(there["answer"]))
        return cands

    def walk(self, secret: str) -> list[tuple[int, str]]:
        """(node, guess) from the root to the node that finds `secret`, by scoring it."""
        code = self.space.code(self.space.index(secret))
        node, out = 0, []
        while True:
            guess = self.space.code(int(self.tree.guess[node]))
            out.append((node, str(guess)))
            fb = score(code.symbols, guess.symbols, self.space.rules)
            r = self.space.response_index(fb)
            if r == self.space.win:
                return out
            node = int(self.child[node, r])


def check_node(ref: Reference, body: dict) -> None:
    """Check one node's answer against the reference."""
    space, tree = ref.space, ref.tree
    node = body["node"]
    cands = ref.secrets(body["path"])
    assert body["path"][-1]["node"] == node and body["path"][0]["answer"] is None
    assert body["guess"] == space.text(int(tree.guess[node]))
    assert body["size"] == cands.size
    assert body["total"] == int(ref.depths[cands].sum())
    assert body["worst"] == int(ref.depths[cands].max())
    assert body["mean"] == round(body["total"] / cands.size, 4)
    assert body["depth"] == len(body["path"])
    assert body["from_here"] == body["total"] - (body["depth"] - 1) * cands.size
    guess = space.index(body["guess"])
    assert body["candidate"] == (guess in set(cands.tolist()))
    parts = space.partition(guess, cands)
    assert [a["answer"] for a in body["answers"]] == (
        [str(space.feedback(r)) for r in sorted(parts) if r != space.win]
        + ([str(space.feedback(space.win))] if space.win in parts else []))
    for a in body["answers"]:
        part = parts[space.response_index(a["answer"])]
        assert a["size"] == part.size
        assert a["total"] == int(ref.depths[part].sum())
        assert a["worst"] == int(ref.depths[part].max())
        if a["win"]:
            assert a["node"] is None and a["total"] == body["depth"]
        else:
            assert a["guess"] == space.text(int(tree.guess[a["node"]]))
            assert a["node"] == int(ref.child[node, space.response_index(a["answer"])])
    if cands.size <= 20:
        assert sorted(body["codes"]) == sorted(space.texts(cands))
    else:
        assert body["codes"] is None


@pytest.mark.parametrize("strategy", ["optimal", *TABLE_STRATEGIES])
def test_the_first_view_is_the_published_tree(client: TestClient, strategy: str) -> None:
    body = client.get("/api/tree", params={"rules": "classic", "strategy": strategy}).json()
    want = OPTIMAL if strategy == "optimal" else CLASSIC[strategy]
    assert (body["node"], body["guess"], body["total"], body["worst"]) == (
        0, want["first_guess"], want["total"], want["worst"])
    assert body["tree"]["total"] == want["total"] and body["tree"]["secrets"] == 1296
    assert sum(a["size"] for a in body["answers"]) == 1296
    assert body["rules"] == "classic" and body["strategy"] == strategy
    check_node(Reference(strategy), body)


@pytest.mark.parametrize("strategy", ["optimal", "maxsize"])
def test_nodes_match_the_library_tree(client: TestClient, strategy: str) -> None:
    ref = Reference(strategy)
    seen = 0
    todo = deque([0])
    rng = random.Random(7)
    while todo and seen < 150:
        node = todo.popleft()
        body = client.get("/api/tree", params={"strategy": strategy, "node": node}).json()
        check_node(ref, body)
        seen += 1
        kids = [a["node"] for a in body["answers"] if not a["win"]]
        todo.extend(rng.sample(kids, min(3, len(kids))))


@pytest.mark.parametrize("strategy", ["optimal", "entropy"])
def test_a_secrets_path(client: TestClient, strategy: str) -> None:
    ref = Reference(strategy)
    secrets = random.Random(3).sample(SPACE.texts(SPACE.all()), 60) + ["6543", "1123"]
    for secret in secrets:
        r = client.get("/api/tree/path", params={"strategy": strategy, "secret": secret})
        body = r.json()
        want = ref.walk(secret)
        assert [(p["node"], p["guess"]) for p in body["path"]] == want, secret
        assert body["guesses"] == len(want) == int(ref.depths[SPACE.index(secret)])
        assert body["secret"] == secret and body["path"][-1]["guess"] == secret
    # the path's last node finds the secret: its one answer row is the win
    leaf = client.get("/api/tree", params={"strategy": strategy,
                                           "node": body["path"][-1]["node"]}).json()
    assert any(a["win"] for a in leaf["answers"]) and leaf["candidate"]
    # other spellings of a code find the same path
    again = client.get("/api/tree/path", params={"strategy": strategy, "secret": "6 5 4 3"})
    assert again.json()["path"] == client.get(
        "/api/tree/path", params={"strategy": strategy, "secret": "6543"}).json()["path"]


def test_mm47_optimal_tree(client: TestClient) -> None:
    body = client.get("/api/tree", params={"rules": "MM(4,7)", "strategy": "optimal"}).json()
    assert body["total"] == PUB["optimal"]["mm47"]["total"] and body["tree"]["secrets"] == 7**4
    assert body["rules"] == "MM(4,7)" and body["tree"]["source"] == "shipped"
    check_node(Reference("optimal", Rules(pegs=4, colors=7)), body)


def test_each_tree_is_built_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def counting(*args, **kwargs):
        calls.append(args)
        return explorer_tree(*args, **kwargs)

    monkeypatch.setattr(service_module, "explorer_tree", counting)
    for node in (0, 1, 2, 0):
        assert client.get("/api/tree", params={"rules": "mini", "strategy": "parts",
                                               "node": node}).status_code == 200
    client.get("/api/tree/path", params={"rules": "mini", "strategy": "kooi", "secret": "1234"})
    assert len(calls) == 1


BAD = [
    ("/api/tree?rules=chess", 422, "unknown rules 'chess'"),
    ("/api/tree?rules=MM(4,99)", 422, "colors must be at most"),
    ("/api/tree?rules=MM(0,4)", 422, "pegs must be a whole number from 1"),
    ("/api/tree?rules=MM(13,2)", 422, "pegs must be a whole number from 1"),
    ("/api/tree?strategy=random", 422, "the tree explorer shows optimal"),
    ("/api/tree?strategy=" + "x" * 60, 422, "the tree explorer shows"),
    ("/api/tree?node=1315", 422, "node 1315 is not in this tree"),
    ("/api/tree?node=-1", 422, "the query parameter 'node' must be at least 0, not '-1'."),
    ("/api/tree?node=abc", 422, "the query parameter 'node' must be a whole number, not 'abc'."),
    ("/api/tree?nodes=3", 422, "unknown query parameter 'nodes'"),
    ("/api/tree/path", 422, "the query parameter 'secret' is missing"),
    ("/api/tree/path?secret=1289", 422, "unknown symbol '8'"),
    ("/api/tree/path?secret=12345", 422, "5"),
    ("/api/tree?rules=super&strategy=maxsize", 413, "too big to build in a web request (at "
     "most 8,192 codes); keypeg tree export --rules super --strategy maxsize writes it."),
    ("/api/tree?rules=codebreaker-4&strategy=expsize", 413,
     "; keypeg tree export --rules codebreaker-4 --strategy expsize writes it."),
    # (not 'tree export writes it': that searches a minute for an optimum nobody knows)
    ("/api/tree?rules=super&strategy=optimal", 413, "its optimum is not known: keypeg optimal "
     "--rules super searches for it for as long as it is given, and stores the tree the "
     "explorer then shows."),
    ("/api/tree?rules=mm-6-9&strategy=entropy", 413, "keypeg evaluate --rules mm-6-9 -s "
     "entropy --checkpoint FILE --save-tree TREE walks it part by part (hours)."),
    ("/api/tree?rules=mm-8-8&strategy=optimal", 413, "its optimum is not known"),
    ("/api/tree?rules=mm-8-8&strategy=parts", 413, "no whole tree of a game this size is "
     "built here; play it with hints instead."),
    ("/api/openings?rules=super", 413, "first-guess table of super"),
    ("/api/openings?rules=chess", 422, "unknown rules 'chess'"),
]


@pytest.mark.parametrize(("url", "status", "fragment"), BAD)
def test_bad_requests_are_one_sentence(client: TestClient, url: str, status: int,
                                       fragment: str) -> None:
    r = client.get(url)
    assert r.status_code == status, r.text
    body = r.json()
    assert list(body) == ["detail"] and fragment in body["detail"], body
    assert body["detail"].endswith(".") and "\n" not in body["detail"]
    assert "x" * (MAX_ECHO + 1) not in body["detail"]


def test_an_optimum_keypeg_optimal_stored_is_shown_in_a_game_too_big_to_search(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past EXACT_HINT_CODES the explorer refused every optimum not shipped, even one
    `keypeg optimal` had stored; it now shows it (here MM(3,5) counts as big)."""
    import keypeg.explorer as explorer_module
    from keypeg.errors import LimitExceededError
    from keypeg.solver.cached import optimal

    monkeypatch.setattr(explorer_module, "EXACT_HINT_CODES", 100)
    monkeypatch.setattr(cached_module, "stored_tree", lambda rules, cap=None: None)
    rules, store = Rules(pegs=3, colors=5), Store(tmp_path / "k.db")
    with pytest.raises(LimitExceededError, match="stores the tree the explorer then shows"):
        explorer_tree(rules, "optimal", store=store)
    optimal(rules, store=store)  # as keypeg optimal --pegs 3 --colors 5 leaves it
    tree, source = explorer_tree(rules, "optimal", store=store)
    assert source == "stored" and tree.total == PUB["ledger"]["totals"]["3"]["5"]


def test_the_rules_list_the_trees_the_explorer_shows(client: TestClient) -> None:
    """Each preset says which strategies' trees the explorer shows ("trees"), and the
    server refuses every other one: the page had offered the optimum of MM(6,9) (none
    ships, none can be searched for in a request) and answered it with a 413."""
    from keypeg.explorer import EXPLORER_STRATEGIES
    from keypeg.limits import EXACT_HINT_CODES

    presets = {p["name"]: p for p in client.get("/api/rules").json()}
    assert presets["classic"]["trees"] == list(EXPLORER_STRATEGIES)
    assert presets["mm-6-9"]["trees"] == [] and presets["mm-8-8"]["trees"] == []
    assert presets["codebreaker-4"]["trees"] == ["optimal"]
    assert presets["super"]["trees"] == []
    for name, p in presets.items():
        if p["codes"] <= EXACT_HINT_CODES:
            assert p["trees"] == list(EXPLORER_STRATEGIES), name
            continue
        for strategy in EXPLORER_STRATEGIES:
            if strategy not in p["trees"]:
                r = client.get("/api/tree", params={"rules": name, "strategy": strategy})
                assert r.status_code == 413, (name, strategy, r.text)


def test_an_optimum_stored_is_offered_by_the_rules(tmp_path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """An optimum `keypeg optimal` stored is offered too (here MM(3,5) counts as big)."""
    import keypeg.explorer as explorer_module
    from keypeg.explorer import tree_offered
    from keypeg.solver.cached import optimal

    monkeypatch.setattr(explorer_module, "EXACT_HINT_CODES", 100)
    rules, store = Rules(pegs=3, colors=5), Store(tmp_path / "k.db")
    assert not tree_offered(rules, "optimal", store)
    optimal(rules, store=store)
    assert tree_offered(rules, "optimal", store)
    assert not tree_offered(rules, "maxsize", store)


def test_an_optimum_not_found_in_time_is_refused_then_at_once(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    quick = functools.partial(explorer_tree, seconds=0.2)
    monkeypatch.setattr(service_module, "explorer_tree", quick)
    # MM(3,17)'s search takes tens of seconds; its tree ships since it became a new cell,
    # so the shipped trees are hidden here (a game whose optimum is not known)
    monkeypatch.setattr(cached_module, "stored_tree", lambda rules, cap=None: None)
    r = client.get("/api/tree", params={"rules": "MM(3,17)", "strategy": "optimal"})
    assert r.status_code == 413
    assert "not found within 0.2 s" in r.json()["detail"]
    assert "keypeg optimal --pegs 3 --colors 17" in r.json()["detail"]
    monkeypatch.setattr(service_module, "explorer_tree", None)  # not called again
    again = client.get("/api/tree", params={"rules": "MM(3,17)", "strategy": "optimal"})
    assert again.status_code == 413 and again.json() == r.json()


def test_a_new_cells_optimal_tree_is_explored(client: TestClient) -> None:
    """Codebreaker 4-6 (100,000 codes, past what a request may build) has its optimal tree
    shipped (a new cell): the explorer serves it."""
    cell = next(c for c in stored_cells() if c["rules"] == "codebreaker-4")
    body = client.get("/api/tree", params={"rules": "codebreaker-4"}).json()
    assert body["tree"]["source"] == "shipped" and body["tree"]["total"] == cell["total"]
    assert body["guess"] == cell["first_guess"] and body["size"] == 100000
    assert sum(a["size"] for a in body["answers"]) == 100000


def test_the_first_guess_table(client: TestClient) -> None:
    body = client.get("/api/openings", params={"rules": "classic"}).json()
    rows = {r["first_guess"]: r for r in body["rows"]}
    after = OPTIMAL["after_first_guess"]
    assert list(rows) == list(after)
    assert [r["class"] for r in body["rows"]] == ["AAAA", "AAAB", "AABB", "AABC", "ABCD"]
    for first, want in after.items():
        assert rows[first]["optimal"] == want["total"]
    for name in TABLE_STRATEGIES:
        assert rows[CLASSIC[name]["first_guess"]]["totals"][name] == CLASSIC[name]["total"]
    forced = PUB["evaluate"]["classic"]["consistent_forced_first"]["1122"]["total"]
    assert rows["1122"]["totals"]["consistent"] == forced
    assert body["best"] == {"class": "AABC", "first_guess": OPTIMAL["first_guess"],
                            "total": OPTIMAL["total"]}
    assert body["complete"] and sum(r["codes"] for r in body["rows"]) == 1296
    assert client.get("/api/openings", params={"rules": "classic"}).json()["rows"] == body["rows"]


short = text.map(lambda t: t[:3000])  # a URL has room for so much
CHEAP_RULES = ["classic", "mini", "MM(4,7)", "mm(3,3)", "super", "codebreaker-4", "chess", "",
               "MM(0,4)", "MM(13,2)", "MM(4,36)", "x" * 90]
CHEAP_STRATEGIES = ["optimal", "maxsize", "knuth", "parts", "random", "genetic", "psychic", ""]


@FUZZ
@given(path=st.sampled_from(["/api/tree", "/api/tree/path", "/api/openings"]),
       params=st.fixed_dictionaries({}, optional={
           "rules": st.one_of(st.sampled_from(CHEAP_RULES), short),
           "strategy": st.one_of(st.sampled_from(CHEAP_STRATEGIES), short),
           "node": st.one_of(st.integers(-3, 3000).map(str), st.sampled_from(
               ["", "1e3", "0x10", "9" * 30, "１"]), short),
           "secret": st.one_of(st.sampled_from(["1234", "6543", "7777", "12", "0123"]), short),
           "x": short}))
def test_any_query_is_answered_or_refused_in_one_sentence(client: TestClient, path: str,
                                                          params: dict[str, str]) -> None:
    if path == "/api/openings":
        params.pop("strategy", None)
        if params.get("rules", "").strip().lower() in ("classic", "mini"):
            params["rules"] = "mini"  # the table itself is tested above
    check(client.get(path, params=params), list(params.values()))
