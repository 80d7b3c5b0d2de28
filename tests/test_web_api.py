"""The JSON API through FastAPI's test client."""

import json

import pytest
from fastapi.testclient import TestClient

from keypeg.game import GameState
from keypeg.hints import hint
from keypeg.rules import find_rules
from keypeg.store import Store
from keypeg.web.app import create_app


@pytest.fixture()
def db(tmp_path):
    return tmp_path / "web.db"


@pytest.fixture()
def client(db):
    return TestClient(create_app(Store(db)))


def new_game(client, rules="classic", seed=None):
    body = {"rules": rules} if seed is None else {"rules": rules, "seed": seed}
    r = client.post("/api/games", json=body)
    assert r.status_code == 200
    return r.json()


def test_rules_lists_every_preset(client):
    names = [p["name"] for p in client.get("/api/rules").json()]
    assert names[:4] == ["classic", "mini", "super", "bulls-and-cows"]
    assert [f"codebreaker-{i}" for i in range(1, 7)] == names[4:]


def test_a_game_to_the_end_never_leaks_the_secret(client):
    game = new_game(client, seed=11)
    assert set(game) == {"id", "rules", "max_guesses", "info"} and len(game["id"]) >= 20
    seen = [json.dumps(game)]
    state = GameState.start(find_rules("classic"))
    while True:
        guess = str(hint(state).optimal.guess) if state.count > 1 else state.candidate_texts()[0]
        r = client.post(f"/api/games/{game['id']}/guesses", json={"guess": guess})
        assert r.status_code == 200
        out = r.json()
        state = state.after(guess, out["feedback"])
        assert out["candidates"] == state.count
        if out["over"]:
            break
        assert "secret" not in out
        seen.append(r.text)
        seen.append(client.get(f"/api/games/{game['id']}/hints").text)
        seen.append(client.get(f"/api/games/{game['id']}").text)
    assert out["solved"] and out["secret"] == guess and out["guesses"] <= 6
    assert not any(out["secret"] in text for text in seen[1:] if '"list"' not in text)
    assert client.get(f"/api/games/{game['id']}").json()["secret"] == guess
    r = client.post(f"/api/games/{game['id']}/guesses", json={"guess": "1111"})
    assert r.status_code == 409 and "over" in r.json()["detail"]


def test_board_rows_end_the_game(client):
    game = new_game(client, rules="codebreaker-3", seed=2)  # 6 attempts
    for i in range(6):
        out = client.post(f"/api/games/{game['id']}/guesses",
                          json={"guess": f"{i}{i + 1}{i + 2}{i + 3}{(i + 4) % 10}"}).json()
        if out["solved"]:
            break
    assert out["over"] and "secret" in out and len(out["marks"]) == 5


def test_hints_match_the_library(client):
    game = new_game(client, seed=3)
    client.post(f"/api/games/{game['id']}/guesses", json={"guess": "1122"})
    h = client.get(f"/api/games/{game['id']}/hints").json()
    history = client.get(f"/api/games/{game['id']}").json()["history"]
    want = hint(GameState.from_clues(find_rules("classic"), [f"{g}={f}" for g, f in history]))
    assert h["candidates"] == want.count
    assert [(s["name"], s["guess"], s["largest_part"]) for s in h["strategies"]] == [
        (s.name, s.guess, s.largest_part) for s in want.strategies]
    assert h["optimal"]["guess"] == want.optimal.guess
    same = client.post("/api/hints", json={"rules": "classic", "history": history}).json()
    assert same == h


def test_cut(client):
    r = client.post("/api/cut", json={"rules": "classic", "history": [], "guess": "1122"})
    out = r.json()
    assert out["count"] == 13 and out["largest"] == 256 and out["candidates"] == 1296
    assert {"feedback": "1B1W", "size": 208} in out["parts"]


def test_watch(client):
    history, out = [], {"solved": False}
    while not out["solved"]:
        out = client.post("/api/watch/step", json={"rules": "classic", "strategy": "maxsize",
                                                   "secret": "6543", "history": history}).json()
        history.append([out["guess"], out["feedback"]])
    assert history[0][0] == "1122" and len(history) <= 5
    assert client.get("/api/watch/secret?rules=super").json()["secret"].isdigit()


def test_lab_is_exact_and_cached(client):
    lab = client.get("/api/lab?rules=classic").json()
    assert lab["exact"] and [r["total"] for r in lab["rows"]] == [7471, 5801, 5696, 5722, 5668]
    assert client.get("/api/lab?rules=classic").json() == lab


def test_a_game_survives_a_restart(db):
    first = TestClient(create_app(Store(db)))
    game = new_game(first, seed=5)
    first.post(f"/api/games/{game['id']}/guesses", json={"guess": "1234"})
    second = TestClient(create_app(Store(db)))
    view = second.get(f"/api/games/{game['id']}").json()
    assert view["history"][0][0] == "1234" and "secret" not in view
    assert second.post(f"/api/games/{game['id']}/guesses",
                       json={"guess": "3456"}).status_code == 200


@pytest.mark.parametrize("method,path,body,status,message", [
    ("post", "/api/games", {"rules": "chess"}, 422, "unknown rules 'chess'"),
    ("post", "/api/games", "not json", 422, "body"),
    ("post", "/api/games/nope/guesses", {"guess": "1122"}, 404, "no game with id"),
    ("get", "/api/games/nope/hints", None, 404, "no game with id"),
    ("post", "/api/cut", {"rules": "classic", "history": [], "guess": "1172"}, 422,
     "unknown symbol '7'"),
    ("post", "/api/cut", {"rules": "classic", "history": [["1122"]], "guess": "1234"}, 422,
     "history item 1"),
    ("post", "/api/cut", {"rules": "classic", "history": [["1122", "5B"]], "guess": "1234"},
     422, "5 key pegs"),
    ("post", "/api/hints", {"rules": "classic",
                            "history": [["1122", "0B0W"], ["1234", "4B0W"]]}, 422,
     "cannot all hold"),
    ("post", "/api/watch/step", {"rules": "classic", "strategy": "psychic", "secret": "1234"},
     422, "unknown strategy"),
    ("post", "/api/watch/step", {"rules": "classic", "strategy": "maxsize"}, 422, "secret"),
    ("get", "/api/lab?rules=chess", None, 422, "unknown rules"),
])
def test_bad_input(client, method, path, body, status, message):
    if isinstance(body, str):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
    elif body is None:
        r = getattr(client, method)(path)
    else:
        r = getattr(client, method)(path, json=body)
    assert r.status_code == status
    detail = r.json()["detail"]
    assert isinstance(detail, str) and message in detail


def test_guess_errors(client):
    game = new_game(client)
    r = client.post(f"/api/games/{game['id']}/guesses", json={"guess": "11"})
    assert r.status_code == 422 and "has 2 symbols" in r.json()["detail"]
    r = client.post(f"/api/games/{game['id']}/guesses", json={})
    assert r.status_code == 422 and "guess" in r.json()["detail"]


def test_big_spaces_answer_in_time(client):
    h = client.post("/api/hints", json={"rules": "codebreaker-4", "history": []}).json()
    assert h["candidates"] == 100000 and h["strategies"]
    assert h["optimal"] is None and "too many" in h["optimal_note"]


def test_openapi_documents_the_paths(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/games/{game_id}/guesses", "/api/games/{game_id}/hints",
                 "/api/cut", "/api/lab"):
        assert path in paths
    assert client.get("/docs").status_code == 200


def test_contradictions_are_structured(client):
    r = client.post("/api/hints", json={"rules": "classic",
                                        "history": [["1122", "0B0W"], ["3456", "1B1W"],
                                                    ["1111", "1B0W"]]})
    body = r.json()
    assert r.status_code == 422 and body["error"] == "contradiction"
    assert body["conflict"] == [1, 3] and set(body["suspects"]) <= {1, 3}
    assert all(str(i) in body["corrections"] for i in body["suspects"])


def test_big_games_answer_quickly(client):
    import time

    started = time.perf_counter()
    history = []
    for _ in range(3):
        out = client.post("/api/watch/step", json={"rules": "codebreaker-4",
                                                   "strategy": "maxsize", "secret": "12345",
                                                   "history": history}).json()
        history.append([out["guess"], out["feedback"]])
    assert time.perf_counter() - started < 30
    info = client.get("/api/rules").json()[0]
    assert info["letters"] == list("RGBYOP") and info["names"][0] == "red"
