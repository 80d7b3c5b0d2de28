"""Two-player matches and the game value through the JSON API (FastAPI's test client).

Matches are played under mini (4 pegs, 4 colours, 10 rows: 256 codes, the smallest
preset), seeded, so each runs in well under a second. Scores are recomputed here from the
histories by seed 004's rules, and every answer from the revealed secret with the naive
scorer, not taken from the library.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from keypeg.game import GameState
from keypeg.limits import MAX_ECHO
from keypeg.published import published
from keypeg.rules import find_rules
from keypeg.store import Store
from keypeg.web.app import create_app
from tests import naive
from tests.test_web_api import strings

RULES = "mini"
MINI = find_rules(RULES)
ROWS = 10  # mini sets no number of guesses: a match's board has 10 rows


@pytest.fixture()
def db(tmp_path):
    return tmp_path / "web.db"


@pytest.fixture()
def client(db):
    return TestClient(create_app(Store(db)))


def new_match(client, **body):
    r = client.post("/api/matches", json={"rules": RULES, **body})
    assert r.status_code == 200, r.json()
    return r.json()


def move(client, view, what, body=None, status=200):
    """POST a move (secret, guesses, answers, give-up) to the match of `view`."""
    r = client.post(f"/api/matches/{view['id']}/{what}", json=body)
    assert r.status_code == status, r.json()
    return r.json()


def game(view, number=None):
    """A game of the view: `number`, or the one in play (else the last)."""
    played = view["played"]
    return played[(number or view["current"] or len(played)) - 1]


def breaker_guess(history):
    """A codebreaker of our own: the first code that fits every answer so far."""
    state = GameState.from_clues(MINI, [f"{g}={f}" for g, f in history])
    return state.candidate_texts()[0]


def break_game_1(client, view, seen=None):
    """Play game 1 as its codebreaker with `breaker_guess` until it ends (at most the rows:
    a server that forgets moves fails here rather than looping); return the last view."""
    for _ in range(ROWS):
        if view["current"] != 1:
            return view
        view = move(client, view, "guesses", {"guess": breaker_guess(game(view, 1)["history"])})
        if seen is not None:
            seen.append((1, view))
    assert view["current"] != 1, "game 1 did not end within its rows"
    return view


def true_answer(secret, guess):
    """The answer by the naive scorer (mini writes colours 1-4)."""
    b, w = naive.blackwhite([int(c) for c in secret], [int(c) for c in guess])
    return f"{b}B{w}W"


def assert_sentence(body, *words):
    detail = body["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and "\n" not in detail
    assert ". " not in detail.replace("e.g. ", ""), f"more than one sentence: {detail}"
    for word in words:
        assert word in detail, detail


def expected_points(g, scoring="guesses"):
    """Seed 004's points of a finished game, for the codemaker and the codebreaker."""
    max_points = ROWS + 1 if scoring == "guesses" else ROWS * MINI.pegs
    if g["forfeit"]:
        return {g["maker"]: 0, g["breaker"]: max_points}
    if g["gave_up"]:
        return {g["maker"]: max_points, g["breaker"]: 0}
    if scoring == "guesses":
        return {g["maker"]: len(g["history"]) + (0 if g["solved"] else 1), g["breaker"]: 0}
    if not g["solved"]:  # key pegs: a code not broken in the rows scores as a give-up
        return {g["maker"]: max_points, g["breaker"]: 0}
    pegs = sum(sum(naive.blackwhite([int(c) for c in g["secret"]], [int(c) for c in h[0]]))
               for h in g["history"])
    return {g["maker"]: pegs, g["breaker"]: 0}


# ---------------------------------------------------------------------- a whole match
def test_a_match_against_the_computer_to_the_final_score(client):
    """Game 1: we break keypeg's code; game 2: keypeg breaks ours, within our one request.
    Every answer is the true one, the points are seed 004's, and the secret of a game in
    play is in no response."""
    view = new_match(client, games=2, opponent="entropy", codemaker="uniform", seed=7)
    assert view["seeded"] is True and view["max_points"] == ROWS + 1
    assert (view["phase"], view["to_move"], view["current"]) == ("guess", "A", 1)
    assert view["players"]["A"] == {"name": "you", "kind": "person"}
    assert view["players"]["B"]["kind"] == "computer"
    assert "seed" not in view and game(view)["secret"] is None
    seen = [(1, view)]  # (the game in play, a response)
    view = break_game_1(client, view, seen)
    first = game(view, 1)
    assert first["over"] and first["solved"] and view["events"] == [first["outcome"]]
    assert f"the secret was {first['secret']}" in first["outcome"]
    assert (view["phase"], view["to_move"]) == ("secret", "A")
    ours = "3142"
    view = move(client, view, "secret", {"secret": ours, "answering": "auto"})
    second = game(view, 2)
    assert second["over"] and second["secret"] == ours and second["breaker"] == "B"
    assert view["events"] == [second["outcome"]]
    for g in (first, second):
        assert g["history"] and all(f == true_answer(g["secret"], guess)
                                    for guess, f in g["history"])
        assert g["points"] == {"A": 0, "B": 0, **expected_points(g)}
    assert view["over"] and view["phase"] == "over" and view["to_move"] is None
    a, b = len(second["history"]), len(first["history"])  # A made game 2's code
    assert view["scores"] == {"A": a, "B": b}
    assert view["winner"] == (None if a == b else "A" if a > b else "B")
    assert view["result"].startswith(f"you {a}, keypeg {b}: ")
    # the secret of a game in play is in no response (but its id, and finished games)
    for number, body in seen:
        secret = game(view, number)["secret"]
        for path, text in strings(body):
            if path[:1] in (("id",), ("events",)) or (
                    path[:1] == ("played",) and body["played"][path[1]]["over"]):
                continue
            assert secret not in text, (path, text)
        assert all(g["secret"] is None for g in body["played"] if not g["over"])
    # the finished match answers no more moves, and its view stays
    after = client.get(f"/api/matches/{view['id']}").json()
    assert after["scores"] == view["scores"] and after["events"] == []
    body = move(client, view, "guesses", {"guess": "1234"}, status=409)
    assert_sentence(body, "the match is over")


def test_a_restart_in_the_middle_loses_nothing(db):
    first = TestClient(create_app(Store(db)))
    view = new_match(first, seed=11)
    view = move(first, view, "guesses", {"guess": "1122"})
    second = TestClient(create_app(Store(db)))  # another process, after a restart
    again = second.get(f"/api/matches/{view['id']}").json()
    assert again == {**view, "events": []}
    again = break_game_1(second, again)
    assert game(again, 1)["history"][0] == game(view, 1)["history"][0]
    again = move(second, again, "secret", {"secret": "random"})
    assert again["over"] and game(again, 2)["secret"] is not None
    assert again["scores"] == {"A": len(game(again, 2)["history"]),
                               "B": len(game(again, 1)["history"])}


def test_a_move_on_a_stale_copy_is_refused(client, monkeypatch):
    """Two windows on one match: another move lands between the load and the save of
    ours, so ours is refused (409) and the match holds only the other one."""
    from keypeg.match import load_match, save_match
    from keypeg.web import service

    view = new_match(client, seed=2)

    def racing_load(store, match_id):
        ours = load_match(store, match_id)
        other = load_match(store, match_id)
        other.guess("3344")
        save_match(store, other)
        return ours

    monkeypatch.setattr(service, "load_match", racing_load)
    r = client.post(f"/api/matches/{view['id']}/guesses", json={"guess": "1122"})
    assert r.status_code == 409
    assert_sentence(r.json(), "changed meanwhile")
    monkeypatch.undo()
    history = game(client.get(f"/api/matches/{view['id']}").json())["history"]
    assert [g for g, _ in history] == ["3344"]


def to_hand_answers(client, seed=5, **body):
    """A match whose game 2 we make with hand answers (we give up game 1)."""
    view = new_match(client, seed=seed, **body)
    view = move(client, view, "give-up")
    assert game(view, 1)["gave_up"] and game(view, 1)["points"]["B"] == view["max_points"]
    assert view["phase"] == "secret"
    return move(client, view, "secret", {"secret": "1234", "answering": "hand"})


def test_an_answer_sent_twice_is_not_taken_as_the_next_guesses(client):
    """A hand answer posted twice (a double click, a retry) had been taken as the answer
    to the computer's next guess; naming the guess answered makes the second a 409."""
    view = to_hand_answers(client)
    first = game(view)["pending"]
    body = {"answer": true_answer("1234", first), "guess": first}
    view = move(client, view, "answers", body)
    second = game(view)["pending"]
    assert second and second != first and len(game(view)["history"]) == 1
    again = move(client, view, "answers", body, status=409)
    assert first in again["detail"] and second in again["detail"]
    view = client.get(f"/api/matches/{view['id']}").json()
    assert len(game(view)["history"]) == 1 and game(view)["pending"] == second
    # the guess is read as any code is (a bad one: 422), and a right one answers
    move(client, view, "answers", {"answer": "0B0W", "guess": "12"}, status=422)
    view = move(client, view, "answers", {"answer": true_answer("1234", second),
                                          "guess": second})
    assert len(game(view)["history"]) == 2


def test_a_random_secret_cannot_be_answered_by_hand(client):
    """The page never shows a secret of a game in play: a random one answered by hand was
    a game answered about a code nobody saw (then forfeited)."""
    view = move(client, new_match(client, seed=5), "give-up")
    r = client.post(f"/api/matches/{view['id']}/secret",
                    json={"secret": "random", "answering": "hand"})
    assert r.status_code == 422 and "kept hidden" in r.json()["detail"]
    view = move(client, view, "secret", {"secret": "random", "answering": "auto"})
    assert view["phase"] != "secret"


def test_a_contradictory_hand_answer_is_refused_and_nothing_changes(client):
    view = to_hand_answers(client)
    g = game(view)
    assert (view["phase"], view["to_move"], g["answering"]) == ("answer", "A", "hand")
    assert g["pending"] and g["secret"] is None
    first = g["pending"]
    view = move(client, view, "answers", {"answer": true_answer("1234", first)})
    second = game(view)["pending"]
    assert view["phase"] == "answer" and second and second != first
    # an answer some code gets, but none that fits answer 1 too
    state = GameState.from_clues(MINI, [f"{h[0]}={h[1]}" for h in game(view)["history"]])
    codes = ["".join(str(s + 1) for s in c) for c in naive.all_codes(4, 4)]
    alone = {true_answer(c, second) for c in codes}
    fits = {true_answer(c, second) for c in set(state.candidate_texts())}
    wrong = sorted(alone - fits)[0]
    before = client.get(f"/api/matches/{view['id']}").json()
    r = client.post(f"/api/matches/{view['id']}/answers", json={"answer": wrong})
    assert r.status_code == 422
    body = r.json()
    assert_sentence(body, f"answer 2 ({second}={wrong}) is refused")
    assert body["error"] == "contradiction" and body["conflict"] == [1, 2]
    assert body["suspects"] == [2] and set(body["corrections"]["2"]) == fits
    assert client.get(f"/api/matches/{view['id']}").json() == before
    # a malformed answer is bad input, not a contradiction
    r = client.post(f"/api/matches/{view['id']}/answers", json={"answer": "9B"})
    assert r.status_code == 422 and "error" not in r.json()
    assert_sentence(r.json())


def test_a_wrong_hand_answer_ends_in_a_forfeit(client):
    view = to_hand_answers(client)
    guess = game(view)["pending"]
    assert guess != "1234"
    # "you found it": consistent with no earlier answer, wrong against the secret
    view = move(client, view, "answers", {"answer": "4B0W"})
    g = game(view, 2)
    assert g["over"] and g["secret"] == "1234" and not g["solved"]
    assert g["forfeit"] == {"answer": 1, "guess": guess, "given": "4B0W",
                            "true": true_answer("1234", guess)}
    assert g["points"] == {"A": 0, "B": view["max_points"]}
    assert "forfeit" in g["outcome"] and view["events"] == [g["outcome"]]
    assert view["over"] and view["scores"] == {"A": 0, "B": 2 * view["max_points"]}
    assert view["winner"] == "B"


def test_two_people_on_one_screen_and_key_peg_scoring(client):
    view = new_match(client, players="people", names=["Ada", "Bob"], scoring="keypegs",
                     games=2, seed=1)
    assert view["players"] == {"A": {"name": "Ada", "kind": "person"},
                               "B": {"name": "Bob", "kind": "person"}}
    assert view["max_points"] == ROWS * MINI.pegs
    assert (view["phase"], view["to_move"]) == ("secret", "B")
    view = move(client, view, "secret", {"secret": "1123"})
    assert game(view)["secret"] is None and (view["phase"], view["to_move"]) == ("guess", "A")
    for guess in ("1122", "1123"):
        view = move(client, view, "guesses", {"guess": guess})
    g = game(view, 1)
    assert g["solved"] and g["points"] == {"A": 0, **expected_points(g, "keypegs")}
    assert g["points"]["B"] == 3 + 4
    assert g["outcome"].startswith("game 1: Ada broke the code in 2 guesses")
    assert (view["phase"], view["to_move"]) == ("secret", "A")
    view = move(client, view, "secret", {"secret": "4444", "answering": "auto"})
    view = move(client, view, "give-up")
    assert view["over"] and view["scores"] == {"A": ROWS * MINI.pegs, "B": 7}
    assert view["result"] == f"Ada {ROWS * MINI.pegs}, Bob 7: Ada wins the match."


# ---------------------------------------------------------------------- bad input
@pytest.mark.parametrize("body,status,words", [
    ({"games": 3}, 422, ["even number of games", "not 3"]),
    ({"games": 0}, 422, ["even number of games"]),
    ({"games": "2"}, 422, ["games"]),
    ({"opponent": "psychic"}, 422, ["unknown strategy 'psychic'"]),
    ({"codemaker": "sneaky"}, 422, ["unknown codemaker 'sneaky'"]),
    ({"scoring": "points"}, 422, ["scoring is guesses or keypegs"]),
    ({"players": "robots"}, 422, ["players is computer", "or people"]),
    ({"players": "people", "opponent": "entropy"}, 422, ["no computer"]),
    ({"names": ["solo"]}, 422, ["two players' names"]),
    ({"names": ["Ann", "ann"]}, 422, ["different names"]),
    ({"names": ["x" * 60, "b"]}, 422, ["1 to 40 characters"]),
    ({"rules": "chess"}, 422, ["unknown rules 'chess'"]),
    ({"seed": -1}, 422, ["seed must be a whole number"]),
    ({"colour": "red"}, 422, ["unknown field 'colour'", "this endpoint takes rules, games"]),
    ({"rules": "super", "codemaker": "game"}, 413, ["out of reach"]),
    ({"rules": "super", "codemaker": "against:entropy"}, 413, ["whole tree"]),
])
def test_bad_new_matches(client, body, status, words):
    r = client.post("/api/matches", json={"rules": RULES, **body})
    assert r.status_code == status
    assert_sentence(r.json(), *words)


def test_bad_moves(client):
    view = new_match(client, seed=3)
    mid = view["id"]
    for method, path, body in (("get", "/api/matches/nope", None),
                               ("post", "/api/matches/nope/guesses", {"guess": "1122"}),
                               ("post", "/api/matches/nope/give-up", None)):
        r = getattr(client, method)(path, **({} if body is None else {"json": body}))
        assert r.status_code == 404
        assert_sentence(r.json(), "no match with id 'nope'")
    r = client.get(f"/api/matches/{'q' * 3000}")
    assert r.status_code == 404 and "q" * (MAX_ECHO + 1) not in r.json()["detail"]
    # out of turn: game 1 waits for our guess
    for what, body, words in (("secret", {"secret": "1234"}, "waiting for a guess from you"),
                              ("answers", {"answer": "1B0W"}, "not for an answer")):
        r = client.post(f"/api/matches/{mid}/{what}", json=body)
        assert r.status_code == 409
        assert_sentence(r.json(), words)
    for body, status, words in (({"guess": "12"}, 422, "2 symbols"),
                                ({"guess": 1122}, 422, "guess must be a string"),
                                ({"guess": "1122", "x": 1}, 422, "unknown field 'x'")):
        r = client.post(f"/api/matches/{mid}/guesses", json=body)
        assert r.status_code == status
        assert_sentence(r.json(), words)
    # nothing above changed the match
    assert client.get(f"/api/matches/{mid}").json() == {**view, "events": []}
    # a guess played already is refused and uses no row
    played = move(client, view, "guesses", {"guess": "1122"})
    assert played["phase"] == "guess"  # (seed 3: 1122 is not the secret)
    r = client.post(f"/api/matches/{mid}/guesses", json={"guess": "1122"})
    assert r.status_code == 422
    assert_sentence(r.json(), "1122 was guess 1 (")
    assert client.get(f"/api/matches/{mid}").json() == {**played, "events": []}
    view = played
    view = move(client, view, "give-up")
    r = client.post(f"/api/matches/{mid}/secret", json={"secret": "1234",
                                                         "answering": "sometimes"})
    assert r.status_code == 422
    assert_sentence(r.json(), "answering is auto")
    r = client.post(f"/api/matches/{mid}/guesses", json={"guess": "1234"})
    assert r.status_code == 409  # keypeg's turn to guess comes after our secret
    r = client.post(f"/api/matches/{mid}/give-up")
    assert r.status_code == 409


def test_the_computer_makes_its_moves_within_a_request(client):
    """With keypeg's adaptive codemaker there is no secret until the game ends; it is then
    one that fits every answer."""
    view = new_match(client, codemaker="adaptive", seed=4)
    assert game(view)["answering"] == "computer"
    view = break_game_1(client, view)
    g = game(view, 1)
    assert g["solved"] and all(f == true_answer(g["secret"], guess)
                               for guess, f in g["history"])


def test_openapi_documents_the_match_routes(client):
    doc = client.get("/openapi.json").json()
    paths = doc["paths"]
    post = {p: set(paths[p]["post"]["responses"]) for p in (
        "/api/matches", "/api/matches/{match_id}/secret", "/api/matches/{match_id}/guesses",
        "/api/matches/{match_id}/answers", "/api/matches/{match_id}/give-up")}
    assert post["/api/matches"] >= {"400", "413", "422"}
    for path in list(post)[1:]:
        assert post[path] >= {"400", "404", "409", "413", "422"}
        assert paths[path]["post"]["responses"]["404"]["description"] == "No match with this id."
    assert set(paths["/api/matches/{match_id}"]["get"]["responses"]) >= {"404", "422"}
    assert set(paths["/api/value"]["get"]["responses"]) >= {"413", "422"}


# ---------------------------------------------------------------------- the game value
def test_the_value_of_classic_is_the_published_one(client):
    pub = published()["optimal"]["classic"]["weighted_two_or_more_colours"]
    want = Fraction(pub["total"], pub["secrets"])  # seed 004: 5,600/1,290
    r = client.get("/api/value?rules=classic")
    assert r.status_code == 200
    data = r.json()
    assert Fraction(data["value"]) == want and data["value"] == "560/129"
    assert data["certified"] and data["rules"] == "classic"
    assert abs(data["mean"] - float(want)) < 1e-6
    mixture = [Fraction(c["probability"]) for c in data["codemaker"]]
    assert sum(mixture) == 1 and sum(c["codes"] for c in data["codemaker"]) == 1296
    assert sum(Fraction(t["probability"]) for t in data["codebreaker"]) == 1
    assert all(len(t["first_guess"]) == 4 for t in data["codebreaker"])


def test_a_value_not_shipped_is_computed_and_cached_or_out_of_reach(client, monkeypatch):
    import keypeg.value
    from keypeg.web import service

    shipped = client.get("/api/value?rules=mini").json()
    monkeypatch.setattr(keypeg.value, "shipped_values", lambda: {})
    live = client.get("/api/value?rules=mini").json()
    assert live["stored"] is False and live["value"] == shipped["value"]
    monkeypatch.setattr(keypeg.value, "game_value", None)  # cached: not computed again
    assert client.get("/api/value?rules=mini").json()["value"] == shipped["value"]
    r = client.get("/api/value?rules=super")
    assert r.status_code == 413
    assert_sentence(r.json(), "out of reach", "keypeg value --rules super")
    monkeypatch.undo()
    monkeypatch.setattr(keypeg.value, "shipped_values", lambda: {})
    monkeypatch.setattr(service, "LIVE_VALUE_SECONDS", 1e-9)
    r = client.get("/api/value?rules=classic")
    assert r.status_code == 413
    assert_sentence(r.json(), "out of reach", "keypeg value --rules classic")
    for path in ("/api/value?rules=chess", "/api/value?rule=classic"):
        r = client.get(path)
        assert r.status_code == 422
        assert_sentence(r.json())
