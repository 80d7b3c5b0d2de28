"""POST /api/optimal: the optimal next guess searched for longer than a hint's second."""

import pytest
from fastapi.testclient import TestClient

from keypeg.game import GameState
from keypeg.rules import find_rules
from keypeg.solver.search import solve_optimal
from keypeg.store import Store
from keypeg.web.app import create_app

BULLS = "bulls-and-cows"
# The bulls-and-cows book answers these positions at once; the tests that need a search
# past a hint's time hide it (`no_book`). The search gets faster as keypeg does, so the
# tests out of time give it far less time than it needs rather than count on it being
# slow: a hint gets `conftest.HINT_SECONDS` instead of its second (`short_hints`).
#: 378 candidates: the optimal search took 1.7 s here, and on CI under a hint's second
SLOW = [["3509", "0B1W"], ["7245", "0B1W"]]
#: 504 candidates: 2.5 s here; within 0.5 s the search has a guess but no proof
SLOWER = [["0124", "0B1W"], ["3567", "0B2W"]]
SLOWER_SECONDS = 0.5


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return TestClient(create_app(Store(tmp_path_factory.mktemp("web") / "web.db")))


def _state(history):
    state = GameState.start(find_rules(BULLS))
    for guess, answer in history:
        state = state.after(guess, answer)
    return state


@pytest.mark.slow
def test_a_hint_out_of_time_offers_a_longer_search_that_finds_the_optimum(client, no_book,
                                                                          short_hints):
    hint = client.post("/api/hints", json={"rules": BULLS, "history": SLOW}).json()
    assert hint["optimal"] is None and hint["optimal_longer"] is True
    r = client.post("/api/optimal", json={"rules": BULLS, "history": SLOW, "seconds": 30})
    assert r.status_code == 200, r.text
    out = r.json()
    state = _state(SLOW)
    tree = solve_optimal(state.space, state=state).tree
    assert out["optimal"]["guess"] == state.space.text(tree.first_guess)
    assert out["candidates"] == state.count and out["best_found"] is None
    # kept: asked again, the same answer at once
    assert client.post("/api/optimal", json={"rules": BULLS, "history": SLOW}).json() == out


@pytest.mark.slow
def test_a_longer_search_out_of_time_says_what_it_found(client, no_book):
    r = client.post("/api/optimal", json={"rules": BULLS, "history": SLOWER,
                                              "seconds": SLOWER_SECONDS})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["optimal"] is None
    found = out["best_found"]
    assert found is not None and found["guess"] in out["optimal_note"]
    assert found["lower"] < found["total"]


def test_a_hint_that_found_the_optimum_offers_no_longer_search(client):
    hint = client.post("/api/hints", json={"rules": "classic",
                                           "history": [["1122", "1B1W"]]}).json()
    assert hint["optimal"] is not None and hint["optimal_longer"] is False


@pytest.mark.parametrize("body,status,words", [
    ({"rules": "super", "history": [["12345", "0B1W"]]}, 413, "at most 600"),
    ({"rules": BULLS, "history": [["0123", "4B0W"]]}, 409, "already found"),
    ({"rules": BULLS, "history": SLOW, "seconds": 0}, 422, "seconds"),
    ({"rules": BULLS, "history": SLOW, "seconds": 61}, 422, "seconds"),
    ({"rules": BULLS, "history": SLOW, "seconds": "5"}, 422, "seconds"),
    ({"rules": BULLS, "history": SLOW, "seconds": True}, 422, "seconds"),
    ({"rules": BULLS, "history": SLOW, "prior": "pin:0123"}, 422, "prior"),
    ({"rules": BULLS, "history": [["0123", "5B0W"]]}, 422, "5B0W"),
], ids=["too-many", "solved", "zero", "past-limit", "text", "bool", "prior", "bad-clue"])
def test_bad_or_too_big_requests(client, body, status, words):
    r = client.post("/api/optimal", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["detail"]


def test_the_book_answers_past_600_candidates(client):
    # bulls-and-cows after one guess: 1,440 candidates, too many to search live, but the
    # opening book holds every position after two guesses
    r = client.post("/api/optimal", json={"rules": BULLS, "history": [["0123", "0B1W"]]})
    assert r.status_code == 200, r.text
    state = _state([["0123", "0B1W"]])
    guess = state.space.index(r.json()["optimal"]["guess"])
    parts = state.space.partition(guess, state.candidates)
    assert max(len(p) for p in parts.values()) == r.json()["optimal"]["largest_part"]


def test_one_long_search_at_a_time(client):
    service = client.app.state.service
    assert service._long.acquire(blocking=False)  # another request's search is running
    try:
        r = client.post("/api/optimal", json={"rules": BULLS, "history": SLOWER})
    finally:
        service._long.release()
    assert r.status_code == 429
    assert "another long search" in r.json()["detail"]
