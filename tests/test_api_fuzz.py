"""Fuzzing the web API's inputs (hypothesis): whatever a client sends, the answer is never
a 5xx or a traceback, and every 4xx is ``{"detail": "one sentence", ...}`` that repeats at
most `limits.MAX_ECHO` characters of any input.

Bodies mix plausible values (codes, feedback, presets, long histories up to and past
`limits.MAX_CLUES`, priors and noise models) with wrong types, huge strings, full-width
digits and nested junk.
Derandomized, so CI sees the same examples every run.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keypeg.limits import MAX_BODY_BYTES, MAX_CLUES, MAX_ECHO
from keypeg.store import Store
from keypeg.web.app import create_app

FUZZ = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: Longest error sentence allowed (a contradiction names its clues, so a few hundred).
LONGEST_DETAIL = 400


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    store = Store(tmp_path_factory.mktemp("fuzz") / "fuzz.db")
    return TestClient(create_app(store), raise_server_exceptions=True)


# ----------------------------------------------------------------------------- values
# cheap rules only where the answer is computed (the lab of a big preset takes seconds)
PRESETS = ["classic", "mini", "bulls-and-cows", "codebreaker-1", "codebreaker-4", "super",
           "CLASSIC", " mm ", "logik", "cb4"]
VALID_CLUES = [["1122", "1B1W"], ["3456", "0B2W"], ["1234", "4B0W"], ["1111", "0B0W"],
               ["RGBY", "2B"], ["0123", "1B2W"], ["01234", "GA--A"], ["56789", "-----"],
               ["1 1 2 2", "1b 1w"], ["1122", "1,1"]]
SPECIAL = ["", " ", "\x00", "\u2028", "１１２２", "１B１W", "１２３４５", "٠١٢٣", "1122\n",
           "🂡🂢🂣🂤", "optimal", "maxsize", "psychic", "random", "1B1W" * 30, "9" * 90 + "B",
           "9" * 5000 + "B", "1" * 97, "GA--A" * 20, "None", "null", "true", "[1122]", "{}",
           "'", '"', "\\", "%s%n", "../../etc/passwd", "<script>"]

huge_text = st.builds(lambda ch, n: ch * n, st.sampled_from(["1", "x", "９", " ", "é", "1B"]),
                      st.sampled_from([MAX_ECHO + 1, 97, 1000, MAX_BODY_BYTES + 10]))
code_text = st.text(alphabet="0123456789RGBYOPrgby,- １２３", max_size=14)
feedback_text = st.text(alphabet="0123456789BWbwGA-/, ", max_size=10)
text = st.one_of(st.sampled_from(SPECIAL + PRESETS), code_text, feedback_text,
                 st.text(max_size=12), huge_text)
scalar = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                   st.floats(allow_nan=False, allow_infinity=False), text)
junk = st.recursive(scalar, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=10)

guess = st.one_of(st.sampled_from([g for g, _ in VALID_CLUES]), code_text, text)
big_numbers = st.builds(lambda n, tail: "9" * n + tail, st.sampled_from([5, 97, 5000]),
                       st.sampled_from(["B", "W", "B1W", ",1", ""]))
feedback = st.one_of(st.sampled_from([f for _, f in VALID_CLUES]), feedback_text, text,
                     big_numbers)
clue = st.one_of(st.sampled_from(VALID_CLUES), st.tuples(guess, feedback).map(list),
                 st.lists(scalar, max_size=3), scalar)


def repeated(items: list[Any], n: int, last: Any) -> list[Any]:
    return items * (n // max(1, len(items))) + ([last] if last is not None else [])


long_history = st.builds(
    repeated, st.lists(st.sampled_from(VALID_CLUES[:4]), min_size=1, max_size=2),
    st.sampled_from([63, 64, MAX_CLUES - 1, MAX_CLUES, MAX_CLUES + 1, 1000, 5000]),
    st.one_of(st.none(), st.sampled_from([["1122", "0B0W"], ["1234", "0B0W"], [1, 2]])))
plain_history = st.lists(st.sampled_from(VALID_CLUES), max_size=5)
# a real guess with odd feedback: the feedback parser is reached
odd_feedback = st.lists(st.tuples(st.sampled_from(["1122", "01234", "0123"]),
                                  st.one_of(big_numbers, feedback_text, text)).map(list),
                        min_size=1, max_size=3)
history = st.one_of(plain_history, plain_history, odd_feedback, st.lists(clue, max_size=6),
                    long_history, junk)
rules = st.one_of(st.sampled_from(PRESETS), st.sampled_from(PRESETS), text, scalar)
seed = st.one_of(st.integers(-5, 2**64), st.sampled_from([True, False, "5", 1.5, -1, 2**63]),
                 scalar)
NOISES = ["exact", "EXACT", "exact:1", "symmetric:0.05", " Symmetric: 0.2 ", "symmetric:0",
          "symmetric:1", "symmetric:-0.5", "symmetric:nan", "symmetric:inf", "symmetric:1e-400",
          "symmetric:0x10", "symmetric", "per-peg:0.02", "perpeg:0.5", "per-peg:1", "lies:0",
          "lies:1", "lies:3", "lies:-1", "lies:1.5", "lies:" + "9" * 90, "lies:١", "lies:",
          "gaussian:1", ":", "symmetric:0.05:1", "symmetric:１"]
PRIORS = ["uniform", "UNIFORM", "uniform:x", "pin", "pin:", "pin:year=20", "PIN:year=20, same=0",
          "pin:year=-1", "pin:x=1", "pin:year", "pin:year=nan", "pin:year=1e308",
          "pin:year=1e300,same=1e300,run=1e300", "pin:,,", "file:/etc/passwd", "file:",
          "FILE:keypeg.db", " file:../../etc/shadow", "zipf", "", "pin:same=0,run=0,pairs=0,"
          "date=0,year=0,keypad=0,repeats=0"]
noise = st.one_of(st.sampled_from(NOISES), st.sampled_from(NOISES), st.none(), text, scalar)
prior = st.one_of(st.sampled_from(PRIORS), st.sampled_from(PRIORS), st.none(), text, scalar)


def body(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A JSON object with any of `fields` (and sometimes an unknown one), or junk."""
    extra = {"histroy": history, "x" * 60: scalar, "": scalar}
    known = st.fixed_dictionaries({}, optional=fields)
    return st.one_of(known, known, known, st.fixed_dictionaries({}, optional={**fields, **extra}),
                     junk)


#: A long search's seconds: short valid ones (a fuzzed position must not search for a
#: minute), and bad ones.
seconds = st.one_of(st.floats(min_value=0.01, max_value=0.5),
                    st.sampled_from([0, -1, 0.0, 61, 1e308, "5", True, None, [], {}]), text)

BODIES = {
    "/api/games": body(rules=rules, seed=seed, prior=prior, noise=noise),
    "/api/games/{id}/guesses": body(guess=text),
    "/api/hints": body(rules=rules, history=history, prior=prior, noise=noise),
    "/api/cut": body(rules=rules, history=history, guess=text, prior=prior, noise=noise),
    "/api/optimal": body(rules=rules, history=history, seconds=seconds),
    "/api/watch/step": body(rules=rules, history=history, secret=text, prior=prior, noise=noise,
                            strategy=st.one_of(st.sampled_from(
                                ["maxsize", "consistent", "parts", "optimal", "psychic",
                                 "information", "random"]), text)),
}


# ----------------------------------------------------------------------------- checks
def inputs(value: Any) -> list[str]:
    """Every string in a request (keys included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in inputs(item)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*inputs(k), *inputs(v))]
    return []


def echoes(text: str, detail: str) -> bool:
    """True when `detail` repeats more than MAX_ECHO characters of `text` in a row
    (sampled windows for long inputs)."""
    width = MAX_ECHO + 1
    if len(text) < width:
        return False
    step = max(1, (len(text) - width) // 200)
    return any(text[i:i + width] in detail for i in range(0, len(text) - width + 1, step))


def check(response: Any, sent: Any = None) -> None:
    assert response.status_code < 500, response.text[:500]
    assert "Traceback" not in response.text
    if response.status_code < 400:
        return
    body = response.json()
    assert isinstance(body, dict) and isinstance(body.get("detail"), str), body
    detail = body["detail"]
    assert 0 < len(detail) <= LONGEST_DETAIL, detail
    assert detail == detail.strip() and "\n" not in detail and detail.endswith("."), detail
    # "jSON decode error" (keypeg's own words: what the caller sent is quoted, and its
    # 'gBB' is no fault of the message's)
    assert not re.search(r"\b[a-z][A-Z]{2}", re.sub(r"'[^']*'", "", detail)), detail
    plain = detail.replace("e.g. ", "e.g.,")
    assert not re.search(r"[.;:]\s+[A-Z][a-z]", plain), f"more than one sentence: {detail}"
    assert not PLURAL_AFTER_1.search(detail), f"a plural after 1: {detail}"
    for text in inputs(sent):
        assert not echoes(text, detail), f"{detail!r} repeats the input"
    if body.get("error") == "contradiction":
        assert set(body) == {"detail", "error", "conflict", "suspects", "corrections"}
    else:
        assert set(body) == {"detail"}, body


PLURAL_AFTER_1 = re.compile(
    r"(?<![\w.,-])1 (?:[a-z-]+ )?(guesses|codes|clues|symbols|marks|pegs|key pegs|candidates|"
    r"seconds|items|characters|bytes|problems|colours|digits|attempts|games|strategies)\b")


def test_library_plurals(client: TestClient) -> None:
    payload = {"rules": "codebreaker-1", "history": [["01234", "G"]]}
    detail = send(client, "/api/hints", payload).json()["detail"]
    assert "has 1 mark;" in detail and not PLURAL_AFTER_1.search(detail), detail


def send(client: TestClient, path: str, payload: Any) -> Any:
    data = json.dumps(payload)
    return client.post(path, content=data, headers={"content-type": "application/json"})


def game_id(client: TestClient) -> str:
    r = client.post("/api/games", json={"rules": "classic"})
    assert r.status_code == 200
    return str(r.json()["id"])


# ----------------------------------------------------------------------------- tests
@pytest.mark.parametrize("path", list(BODIES))
def test_post_bodies(client: TestClient, path: str) -> None:
    target = path.replace("{id}", game_id(client)) if "{id}" in path else path

    @FUZZ
    @given(payload=BODIES[path])
    def fuzz(payload: Any) -> None:
        check(send(client, target, payload), payload)

    fuzz()


@FUZZ
@given(raw=st.one_of(
    st.binary(max_size=64),
    st.sampled_from([b"", b"{", b'{"rules": ', b"[" * 5000, b"{" * 100, b'{"a":1}' * 3,
                     b"\xff\xfe", b'{"rules": "classic"', b"nul\x00l", b"1e999999",
                     b'{"seed": 1e400}', b'{"history": [' + b'["1122","1B1W"],' * 300 + b"]}"]),
    st.text(max_size=40).map(str.encode)),
    content_type=st.sampled_from(["application/json", "text/plain", "", "application/x+json",
                                  "multipart/form-data; boundary=x"]),
    path=st.sampled_from(["/api/games", "/api/hints", "/api/cut", "/api/watch/step",
                          "/api/optimal"]))
def test_raw_bodies(client: TestClient, raw: bytes, content_type: str, path: str) -> None:
    headers = {"content-type": content_type} if content_type else {}
    check(client.post(path, content=raw, headers=headers))


@pytest.fixture(scope="module")
def game(client: TestClient) -> str:
    return game_id(client)


CHEAP_LABS = ("classic", "mini")  # the lab of a big preset is seconds of sampled play


@FUZZ
@given(path=st.sampled_from(["/api/lab", "/api/watch/secret", "/api/rules", "/api/games/ID",
                             "/api/games/ID/hints", "/api/games/JUNK",
                             "/api/games/JUNK/hints"]),
       params=st.dictionaries(st.sampled_from(["rules", "rule", "x", "seed", "x" * 80]),
                              st.one_of(st.sampled_from(["classic", "mini", "chess", ""]),
                                        st.text(max_size=10), huge_text.map(lambda t: t[:3000])),
                              max_size=2),
       junk_id=st.one_of(st.text(min_size=1, max_size=20), huge_text))
def test_get_queries(client: TestClient, game: str, path: str, params: dict[str, str],
                     junk_id: str) -> None:
    rules = params.get("rules", "classic").strip().lower()
    if path == "/api/lab" and rules in PRESETS and rules not in CHEAP_LABS:
        params["rules"] = "chess"
    target = path.replace("ID", game).replace("JUNK", quote(junk_id[:3000], safe=""))
    check(client.get(target, params=params), [*params, *params.values(), junk_id])


EXTRA_FIELDS: dict[str, dict[str, Any]] = {
    "/api/hints": {}, "/api/cut": {"guess": "1234"}, "/api/watch/step": {"secret": "1314"},
    "/api/optimal": {"seconds": 5}}


@pytest.mark.parametrize("n", [1, 63, 64, 65, MAX_CLUES - 1, MAX_CLUES, MAX_CLUES + 1, 4000])
@pytest.mark.parametrize("path", list(EXTRA_FIELDS))
def test_long_histories(client: TestClient, n: int, path: str) -> None:
    """Long histories, consistent or contradicting at the end: answered (up to MAX_CLUES),
    refused with a sentence naming the limit past it, or 413 past the body limit."""
    for last in (["1122", "1B1W"], ["1122", "0B0W"]):
        history = [["1122", "1B1W"]] * (n - 1) + [last]
        payload: dict[str, Any] = {"rules": "classic", "history": history,
                                   **EXTRA_FIELDS[path]}
        r = send(client, path, payload)
        check(r, payload)
        if n > MAX_CLUES and len(json.dumps(payload)) <= MAX_BODY_BYTES:
            assert r.status_code == 422 and f"at most {MAX_CLUES} clues" in r.json()["detail"]
        elif n > MAX_CLUES:
            assert r.status_code == 413
        elif last[1] == "0B0W" and n > 1:
            assert r.status_code == 422 and r.json()["error"] == "contradiction"
        elif last[1] == "0B0W" and path == "/api/watch/step":  # not the secret's answer
            assert r.status_code == 422 and "does not match the secret" in r.json()["detail"]
        else:
            assert r.status_code == 200


# ----------------------------------------------------------------------------- beliefs
BELIEF_RULES = ["classic", "mini", "bulls-and-cows", "codebreaker-1"]
#: A code of each of those rules, for the guess, the secret and the clues.
CODES = {"classic": "1234", "mini": "1234", "bulls-and-cows": "1234", "codebreaker-1": "01234"}


@FUZZ
@given(rules=st.sampled_from(BELIEF_RULES), prior=prior, noise=noise,
       answers=st.lists(st.one_of(st.sampled_from(["0B0W", "1B1W", "4B0W", "0B4W", "GA--A",
                                                   "-----", "GGGGG", "1B"]), feedback_text),
                        max_size=4),
       path=st.sampled_from(["/api/hints", "/api/cut", "/api/watch/step", "/api/games"]),
       strategy=st.sampled_from(["information", "maxsize", "consistent", "random", "optimal"]))
def test_priors_and_noise(client: TestClient, rules: str, prior: Any, noise: Any,
                          answers: list[str], path: str, strategy: str) -> None:
    """Valid rules, codes and clues with any prior and noise: an answer, or one sentence
    (a contradiction under exact noise or lies:K keeps its structure)."""
    code = CODES[rules]
    payload: dict[str, Any] = {"rules": rules, "prior": prior, "noise": noise}
    if path != "/api/games":
        payload["history"] = [[code, a] for a in answers]
    if path == "/api/cut":
        payload["guess"] = code
    if path == "/api/watch/step":
        payload.update(secret=code[::-1], strategy=strategy)
    r = send(client, path, payload)
    check(r, payload)
    if isinstance(prior, str) and prior.strip().lower().startswith("file:"):
        assert r.status_code == 422 and "file: prior" in r.json()["detail"]


@settings(FUZZ, max_examples=40)  # whole games: fewer of them
@given(rules=st.sampled_from(BELIEF_RULES), seed=st.one_of(st.none(), st.integers(0, 2**63 - 1)),
       prior=st.sampled_from([None, "uniform", "pin", "pin:year=20"]),
       noise=st.sampled_from([None, "exact", "symmetric:0.3", "per-peg:0.2", "lies:0", "lies:2"]),
       guesses=st.lists(st.sampled_from(["1234", "1122", "4321", "01234", "56789", "5678", "x"]),
                        min_size=1, max_size=12))
def test_noisy_games(client: TestClient, rules: str, seed: Any, prior: Any, noise: Any,
                     guesses: list[str]) -> None:
    """A game under any prior and noise: guesses, hints and the view answer or refuse in one
    sentence; the wrong answers show only once the game is over."""
    r = send(client, "/api/games", {"rules": rules, "seed": seed, "prior": prior,
                                    "noise": noise})
    check(r)
    if r.status_code != 200:
        return
    game = r.json()["id"]
    for i, guess in enumerate(guesses):
        out = send(client, f"/api/games/{game}/guesses", {"guess": guess})
        check(out)
        if out.status_code == 200:
            assert ("wrong_answers" in out.json()) == (out.json()["over"] and noisy(r))
        view = client.get(f"/api/games/{game}").json()
        assert ("wrong_answers" in view) == (view["over"] and noisy(r))
        assert ("secret" in view) == view["over"]
        if i in (0, len(guesses) - 1):
            check(client.get(f"/api/games/{game}/hints"))


def noisy(game: Any) -> bool:
    return bool(game.json()["noise"] != "exact")


@pytest.mark.parametrize("n", [1, MAX_CLUES, MAX_CLUES + 1])
@pytest.mark.parametrize("noise", ["symmetric:0.05", "lies:1", "lies:0"])
@pytest.mark.parametrize("path", [p for p in EXTRA_FIELDS if p != "/api/optimal"])  # (plain)
def test_long_histories_under_noise(client: TestClient, n: int, noise: str, path: str) -> None:
    """Under symmetric noise or lies:1 a last clue that contradicts the others is weighed,
    not refused; lies:0 is plain filtering. Watch, whose answers come from its secret
    (true), refuses the clue the secret does not answer."""
    history = [["1122", "1B1W"]] * (n - 1) + [["1122", "0B0W"]]
    payload: dict[str, Any] = {"rules": "classic", "history": history, "noise": noise,
                               **EXTRA_FIELDS[path]}
    r = send(client, path, payload)
    check(r, payload)
    if n > MAX_CLUES:
        assert r.status_code == 422 and f"at most {MAX_CLUES} clues" in r.json()["detail"]
    elif noise == "lies:0" and n > 1:
        assert r.status_code == 422 and r.json()["error"] == "contradiction"
    elif path == "/api/watch/step":  # weighed, but Watch's answers are the secret's, true
        assert r.status_code == 422 and "does not match the secret" in r.json()["detail"]
    else:
        assert r.status_code == 200, r.text


# ----------------------------------------------------------------------------- matches
#: Presets a new match may be fuzzed under: creating one costs at most a computer secret
#: (against:entropy on bulls-and-cows is a whole tree, under a second).
MATCH_RULES = ["classic", "mini", "bulls-and-cows", "super", "codebreaker-1", "CLASSIC", "mm"]
games = st.one_of(st.sampled_from([2, 4, 3, 0, -2, 50, 52, 2**70, "2", True, 2.0, None]),
                  scalar)
codemaker = st.one_of(st.sampled_from(["uniform", "game", "adaptive", "against:entropy",
                                       "against:random", "against:", "against:psychic",
                                       "Uniform", None]), text, scalar)
MATCH_BODY = body(rules=st.one_of(st.sampled_from(MATCH_RULES), text, scalar), games=games,
                  players=st.one_of(st.sampled_from(["computer", "people", "robots",
                                                     " People "]), text, scalar),
                  names=st.one_of(st.lists(st.one_of(st.sampled_from(["Ada", "Bob", "you"]),
                                                     text), max_size=3), scalar),
                  opponent=st.one_of(st.sampled_from(["entropy", "maxsize", "random",
                                                      "psychic", None]), text, scalar),
                  codemaker=codemaker,
                  scoring=st.one_of(st.sampled_from(["guesses", "keypegs", "KEYPEGS",
                                                     "points"]), text, scalar),
                  seed=seed)


def match_id(client: TestClient, phase: str) -> str:
    """A mini match between two people waiting for `phase` (secret, guess or answer)."""
    r = client.post("/api/matches", json={"rules": "mini", "players": "people", "seed": 1})
    assert r.status_code == 200
    mid = str(r.json()["id"])
    if phase in ("guess", "answer"):
        answering = "hand" if phase == "answer" else "auto"
        r = client.post(f"/api/matches/{mid}/secret",
                        json={"secret": "1234", "answering": answering})
        assert r.status_code == 200
    if phase == "answer":
        assert client.post(f"/api/matches/{mid}/guesses", json={"guess": "1122"}
                           ).status_code == 200
    return mid


MATCH_MOVES = {
    "secret": ("secret", body(secret=st.one_of(st.sampled_from(["random", "RANDOM", "1234",
                                                                "9999"]), text),
                              answering=st.one_of(st.sampled_from(["auto", "hand", "Hand",
                                                                   "never"]), text, scalar))),
    "guesses": ("guess", body(guess=text)),
    "answers": ("answer", body(answer=feedback)),
}


@settings(FUZZ, max_examples=120)
@given(payload=MATCH_BODY)
def test_new_matches(client: TestClient, payload: Any) -> None:
    r = send(client, "/api/matches", payload)
    check(r, payload)
    if r.status_code == 200:
        view = r.json()
        assert all(g["secret"] is None for g in view["played"] if not g["over"])


@pytest.mark.parametrize("what", list(MATCH_MOVES))
def test_match_moves(client: TestClient, what: str) -> None:
    """Moves with any body, on a match waiting for that move (then for others): a new view,
    or one sentence (409 out of turn, a contradiction with its structure)."""
    phase, bodies = MATCH_MOVES[what]
    target = f"/api/matches/{match_id(client, phase)}/{what}"

    @settings(FUZZ, max_examples=100)
    @given(payload=bodies)
    def fuzz(payload: Any) -> None:
        check(send(client, target, payload), payload)

    fuzz()
    for junk_id in ("nope", "x" * 3000, "%00", "../games"):
        check(client.get(f"/api/matches/{quote(junk_id, safe='')}"), [junk_id])
        check(send(client, f"/api/matches/{quote(junk_id, safe='')}/give-up", {}), [junk_id])
