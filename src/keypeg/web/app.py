"""The web app: a JSON API (FastAPI) and one static page.

Routes are plain `def` functions, so FastAPI runs each request on its thread pool; the
compiled kernels release the GIL, and a slow request does not stall the others.

Every error is ``{"detail": "one sentence"}`` (contradictory clues add "error",
"conflict", "suspects" and "corrections", clue numbers from 1): bad input 422 (a body
that cannot be parsed at all 400), an unknown game or match 404, a finished game 409, a
match move out of turn (or a match saved meanwhile) 409, a request too big or too
expensive to answer in time 413 (or an answer labelled approximate).
Input is strict: strings must be JSON strings, seeds whole numbers, history items
[guess, feedback] pairs; unknown body fields and query parameters are refused. Input is
repeated back in a message only up to `limits.MAX_ECHO` characters.

Hints, cuts, Watch steps and new games take an optional "prior" and "noise", written as the
command line's --prior and --noise (a file: prior is refused: it would read the server's
files); a game keeps its own, and its misreported answers stay secret until it is over.

Matches (`keypeg.match`) are stored like games, so a restart loses nothing; every move
answers the match's view (no secret of a game in play) and the computer's moves are made
within the request, on the thread pool. The game value is read from what keypeg ships, or
computed on the thread pool for small spaces within `limits.LIVE_VALUE_SECONDS`.
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import signal
import sys
import threading
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    MutableMapping,
)
from contextlib import asynccontextmanager, contextmanager
from importlib import resources
from typing import Annotated, Any, NotRequired

from fastapi import Depends, FastAPI, Query, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from .. import limits
from ..errors import InconsistentHistoryError, KeypegError, LimitExceededError
from ..limits import (
    LIVE_VALUE_CODES,
    LIVE_VALUE_SECONDS,
    MAX_BODY_BYTES,
    MAX_CLUES,
    MAX_ECHO,
    plural,
    shorten,
    shown,
)
from ..match import MAX_GAMES, MatchStateError
from ..rules import find_rules
from ..store import Store
from .service import GameNotFound, GameOver, MatchNotFound, ServerBusy, Service, presets

STATIC = resources.files("keypeg") / "web" / "static"

MAX_TEXT = limits.MAX_TEXT

#: Environment variable `keypeg serve` sets to its process id, so each worker it starts
#: knows its parent and exits with it.
SERVE_PARENT_ENV = "KEYPEG_SERVE_PARENT"

# ----------------------------------------------------------------------------- models
Text = Annotated[StrictStr, Field(max_length=MAX_TEXT)]
Clue = Annotated[tuple[Text, Text], Field(description='[guess, feedback], e.g. ["1122", "1B1W"].')]
History = Annotated[list[Clue], Field(
    max_length=MAX_CLUES,
    description=f"The clues so far, [[guess, feedback], ...], at most {MAX_CLUES} of them.")]
Rules = Annotated[Text, Field(description="A rules preset, e.g. classic or codebreaker-4.")]
PRIOR_TEXT = (
    "A prior over the secrets, as `keypeg --prior` takes it: uniform (the default, also "
    "null) or pin (how people choose digit PINs; pin:NAME=WEIGHT,... changes a feature's "
    "weight, e.g. pin:year=20; digit games only). A file:PATH prior is refused (422): the "
    "web API reads no files on the server.")
NOISE_TEXT = (
    "How the answers may be wrong, as `keypeg --noise` takes it: exact (the default, also "
    "null), symmetric:EPS (an answer is wrong with probability EPS, 0 <= EPS < 1), "
    "per-peg:EPS (each green/amber/gray mark, positional games only) or lies:K (at most K "
    "answers are wrong, K >= 0). Under noise a wrong clue is weighed, not a contradiction "
    "(except past K lies); anything else is refused (422).")
Prior = Annotated[Text | None, Field(description=PRIOR_TEXT)]
Noise = Annotated[Text | None, Field(description=NOISE_TEXT)]
_BELIEF_ANSWER = (" Under a prior or noise the answer also has \"likely\" (the likeliest "
                  "secrets with their probabilities), \"doubts\" (per clue, the "
                  "probability it was misreported) and a \"chance\" on each strategy row; "
                  "\"recommended\" is then the information-gain guess.")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoBody(_Body):
    """The body of a POST that takes none: nothing, or {} (anything else was ignored)."""


class NewGame(_Body):
    rules: Rules = "classic"
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63)] | None = Field(
        None, description="Seed for the secret, a whole number from 0 to 2**63 - 1, for "
        "reproducible games in tests and teaching: the secret is then predictable by "
        "anyone who knows the seed, and the game says so (\"seeded\": true).")
    prior: Prior = Field(None, description="The prior the secret is drawn from. "
                         + PRIOR_TEXT)
    noise: Noise = Field(None, description="How the server's answers are wrong: each answer "
                         "is misreported as the model says (a win never is); which ones "
                         "were is revealed once the game is over (\"wrong_answers\"). "
                         + NOISE_TEXT)


class GuessIn(_Body):
    guess: Text = Field(..., description="A code in the rules' notation, e.g. 1122.")


class CutIn(_Body):
    rules: Rules = "classic"
    history: History = Field(default_factory=list)
    guess: Text = Field(..., description="The code whose cut is wanted.")
    prior: Prior = None
    noise: Noise = None


class HintsIn(_Body):
    rules: Rules = "classic"
    history: History = Field(default_factory=list)
    prior: Prior = None
    noise: Noise = None


class OptimalIn(_Body):
    rules: Rules = "classic"
    history: History = Field(default_factory=list)
    seconds: Annotated[StrictFloat | StrictInt, Field(
        gt=0, le=limits.LONG_OPTIMAL_SECONDS,
        description="Most seconds to search (more than 0, at most "
        f"{limits.LONG_OPTIMAL_SECONDS:g}).")] = limits.LONG_OPTIMAL_SECONDS


class WatchIn(_Body):
    rules: Rules = "classic"
    strategy: Text = Field("maxsize", description="A strategy name, e.g. maxsize, or "
                           "information (information gain under the belief).")
    secret: Text = Field(..., description="The secret the strategy plays against.")
    history: History = Field(default_factory=list)
    prior: Prior = Field(None, description="The prior the strategy believes in. "
                         + PRIOR_TEXT)
    noise: Noise = Field(None, description="The noise the strategy believes in (the answers "
                         "it gets are true). " + NOISE_TEXT)


Seed = Annotated[StrictInt, Field(ge=0, lt=2**63)]


class NewMatch(_Body):
    rules: Rules = "classic"
    games: StrictInt = Field(2, description="Games in the match: a positive even number, at "
                             f"most {MAX_GAMES} (roles alternate, so each player makes as "
                             "many codes as they break).")
    players: Text = Field("computer", description="computer: you (side A, breaking the code "
                          "in game 1) against keypeg (side B); people: two people taking "
                          "turns on one screen.")
    names: list[Text] | None = Field(
        None, description="The players' names, side A's first (1 to 40 characters each); by "
        "default you and keypeg, or player A and player B.")
    opponent: Text | None = Field(None, description="The strategy the computer breaks codes "
                                  "with (default entropy), played symmetrised: under a "
                                  "random relabelling of colours and positions each game. "
                                  "Against the computer only.")
    codemaker: Text | None = Field(None, description="How the computer makes codes: uniform "
                                   "(the default), game (the game value's mixture), "
                                   "against:STRATEGY (a code that strategy needs most guesses "
                                   "for) or adaptive (commits to no code). Against the "
                                   "computer only.")
    scoring: Text = Field("guesses", description="guesses: the codemaker scores a point per "
                          "guess, one more when the code is not broken within the rows; "
                          "keypegs: a point per key peg placed, rows x pegs when the code "
                          "is not broken.")
    seed: Seed | None = Field(None, description="Seed for the computer's choices (0 to "
                              "2**63 - 1), for reproducible matches in tests: they are then "
                              "predictable, and the match says so (\"seeded\": true).")


class SecretIn(_Body):
    secret: Text = Field(..., description="The secret code, or random (keypeg draws one). "
                         "It is never sent back before its game is over.")
    answering: Text = Field("auto", description="auto: keypeg answers every guess truly from "
                            "the secret; hand: you answer each guess yourself (checked "
                            "against your earlier answers at once, and against the secret "
                            "when the game ends: a wrong answer forfeits the game).")


class AnswerIn(_Body):
    answer: Text = Field(..., description="The answer to the pending guess, e.g. 1B2W or "
                         "GA--A.")
    guess: Text | None = Field(None, description="The guess answered (\"pending\" in the "
                               "view): when given and another guess is pending, the answer "
                               "is refused (409), so an answer sent twice (a double click, "
                               "a retry) is not taken as the next guess's.")


class Error(TypedDict):
    """Every error answer: one sentence, plus the structure of a contradiction."""

    detail: Annotated[str, Field(description="What is wrong, in one sentence.")]
    error: NotRequired[Annotated[str, Field(
        description='"contradiction" when no code fits the clues (422).')]]
    conflict: NotRequired[Annotated[list[int], Field(
        description="Contradictions: a smallest set of clues (numbered from 1) that "
        "cannot all hold.")]]
    suspects: NotRequired[Annotated[list[int], Field(
        description="Contradictions: the clues any one of which, if wrong, explains it "
        "(in a match: the answer refused).")]]
    corrections: NotRequired[Annotated[dict[str, list[str]], Field(
        description="Contradictions: for each suspect, the feedback it could have had.")]]


_WHY = {
    400: "The request body could not be parsed at all.",
    404: "No game with this id.",
    409: "The game is over (or the secret already found).",
    413: f"The request body is over {MAX_BODY_BYTES:,} bytes, or the request would take "
         "more time or memory than a web request may.",
    429: "Another long search is running on this server: try again when it ends.",
    422: "Bad input: a malformed or impossible value, an unknown field or query "
         "parameter, or clues that contradict each other.",
}


_MATCH_WHY = {
    404: "No match with this id.",
    409: "A move the match is not waiting for (out of turn, or the match is over), or the "
         "match was saved meanwhile (another window): reload it.",
}


def _errors(*statuses: int, why: dict[int, str] | None = None
            ) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of a route (422 always); `why` overrides the
    descriptions of some."""
    about = {**_WHY, **(why or {})}
    return {s: {"model": Error, "description": about[s]} for s in sorted({*statuses, 422})}


_BODY_ERRORS = (400, 413)


# ----------------------------------------------------------------------------- messages
_KINDS: tuple[tuple[type, str], ...] = (
    (bool, "a boolean"), (int, "a number"), (float, "a number"), (str, "a string"),
    (list, "a list"), (dict, "an object"), (bytes, "raw bytes"),
)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    for cls, text in _KINDS:
        if isinstance(value, cls):
            return text
    return "a value of another kind"


def _shown(value: Any, query: bool = False) -> str:
    """A value in a message: a number as written, a query parameter as written (every one
    is text), anything else by its kind."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return shorten(value)
    if query and isinstance(value, str):
        return shown(value)
    return _kind(value)


#: What pydantic's type errors expect, in words (a union's members are one error here).
_EXPECTED = {"int_type": "a whole number", "int_parsing": "a whole number",
             "int_from_float": "a whole number", "float_type": "a number",
             "float_parsing": "a number", "list_type": "a list", "bool_type": "true or false",
             "bool_parsing": "true or false", "dict_type": "an object"}
#: pydantic's bound errors: the bound's name in its context and the words for it.
_BOUNDS = {"greater_than": ("gt", "more than"), "greater_than_equal": ("ge", "at least"),
           "less_than": ("lt", "less than"), "less_than_equal": ("le", "at most")}
#: The names pydantic puts at the end of a location for each member of a union.
_UNION_TAGS = {"int", "float", "str", "bool", "list", "dict"}


def _union(errors: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str | None]:
    """Fold the first error with its union siblings (the same place, one per member type,
    as for seconds: StrictFloat | StrictInt) into one: return the errors left, the first
    with its member tag dropped, and what the union expects in words (None if no union)."""
    loc = tuple(errors[0].get("loc", ()))
    if not loc or loc[-1] not in _UNION_TAGS:
        return errors, None
    same = [e for e in errors if tuple(e.get("loc", ()))[:-1] == loc[:-1]
            and tuple(e.get("loc", ()))[-1] in _UNION_TAGS]
    wants = list(dict.fromkeys(_EXPECTED.get(str(e.get("type")), str(tuple(e["loc"])[-1]))
                               for e in same))
    if set(wants) == {"a whole number", "a number"}:  # int | float: any number
        wants = ["a number"]
    expected = " or ".join(wants)
    first = {**errors[0], "loc": loc[:-1]}
    return [first, *(e for e in errors[1:] if e not in same)], expected


def _lower_first(text: str) -> str:
    """Lower the first letter of a message, unless its first word is an acronym (JSON)."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first[1:].lower() != first[1:]:
        return text
    return text[:1].lower() + text[1:]


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


_LONG_TOKEN = re.compile(r"\S{" + str(MAX_ECHO + 5) + ",}")


def tidy(message: str, inputs: Iterable[str] = ()) -> str:
    """Return `message` with every input longer than MAX_ECHO characters shortened where
    it is repeated (quoted or not), and any other long run of non-blank characters (an
    input repeated after normalising) shortened too."""
    for text in sorted({t for t in inputs if len(t) > MAX_ECHO}, key=len, reverse=True):
        message = message.replace(repr(text), repr(shorten(text)))
        message = message.replace(text, shorten(text))
    return _LONG_TOKEN.sub(lambda m: shorten(m.group()), message)


def _texts(*values: Any) -> Iterator[str]:
    """Every string inside `values` (models, lists, dicts)."""
    for value in values:
        if isinstance(value, str):
            yield value
        elif isinstance(value, BaseModel):
            yield from _texts(*value.__dict__.values())
        elif isinstance(value, (list, tuple)):
            yield from _texts(*value)
        elif isinstance(value, dict):
            yield from _texts(*value.keys(), *value.values())


@contextmanager
def _echoing(*inputs: Any) -> Iterator[None]:
    """Shorten the inputs a `KeypegError` raised inside repeats back."""
    try:
        yield
    except KeypegError as exc:
        exc.args = (tidy(str(exc), list(_texts(*inputs))),)
        raise


def _where(loc: tuple[Any, ...]) -> str:
    """Name the place of a validation error: 'seed', 'history item 3', ..."""
    parts = list(loc)
    if parts and parts[0] == "body":
        parts = parts[1:]
        if not parts:
            return "the request body"
    elif parts and parts[0] == "query":
        return f"the query parameter {shorten(parts[1])!r}" if len(parts) > 1 else "the query"
    elif parts and parts[0] == "path":
        parts = parts[1:]
    if len(parts) >= 2 and parts[0] == "history" and isinstance(parts[1], int):
        item = f"history item {parts[1] + 1}"
        if len(parts) >= 3:
            part = ("guess", "feedback")[parts[2]] if parts[2] in (0, 1) else "value"
            return f"the {part} of {item}"
        return item
    if len(parts) == 2 and isinstance(parts[1], int):  # names.0: the first name
        return f"{shorten(parts[0])} item {parts[1] + 1}"
    return ".".join(shorten(p) for p in parts) or "the request"


def validation_sentence(errors: list[dict[str, Any]], fields: list[str] | None = None) -> str:
    """Return one sentence for FastAPI's validation errors (the first one, and how many
    more), never repeating more than MAX_ECHO characters of the input."""
    if not errors:
        return "the request is not valid for this endpoint."
    errors, expected = _union(errors)
    first = errors[0]
    kind = str(first.get("type", ""))
    loc = tuple(first.get("loc", ()))
    value = first.get("input")
    ctx = first.get("ctx") or {}
    where = _where(loc)
    name = loc[-1] if loc else None
    query = loc[:1] == ("query",)
    pair = "a [guess, feedback] pair of strings"
    if kind == "json_invalid":
        error = _lower_first(str(ctx.get("error", "malformed")))
        at = f" at character {loc[1]:,}" if len(loc) > 1 and isinstance(loc[1], int) else ""
        text = f"the request body is not valid JSON ({shorten(error, 80)}{at})"
    elif kind == "missing" and loc[:1] == ("body",) and len(loc) == 1:
        text = "the request needs a JSON object as its body"
    elif loc[1:2] == ("history",) and len(loc) == 2 and kind == "too_long":
        n = ctx.get("actual_length")
        have = plural(n, "clue") if isinstance(n, int) else "more clues"
        text = (f"history has {have}; the web API takes at most "
                f"{plural(MAX_CLUES, 'clue')} in one request")
    elif loc[1:2] == ("history",) and len(loc) == 2:
        text = f"history must be a list of [guess, feedback] pairs, not {_kind(value)}"
    elif loc[1:2] == ("history",) and (len(loc) == 3 or kind == "missing"):
        if isinstance(value, list | tuple):
            have = f"a list of {plural(len(value), 'item')}"
        elif kind == "missing":
            have = "a list of 1 item"
        else:
            have = _kind(value)
        text = f"history item {loc[2] + 1} must be {pair}, not {have}"
    elif kind == "missing":
        text = f"{where} is missing"
    elif kind == "extra_forbidden":
        text = f"unknown field {shorten(name)!r} in the request body"
        if fields:
            text += f"; this endpoint takes {', '.join(fields)}"
        elif fields is not None:
            text += "; this endpoint takes no body (or {})"
    elif kind in ("dict_type", "model_attributes_type", "model_type") and len(loc) <= 1:
        text = "the request body must be a JSON object"
        if isinstance(value, (bytes, str)):
            text += " sent with Content-Type: application/json"
        else:
            text += f", not {_kind(value)}"
    elif name == "seed":
        shown = shorten(value) if isinstance(value, (int, float)) and not isinstance(
            value, bool) else _kind(value)
        text = f"seed must be a whole number from 0 to 2**63 - 1 (or null), not {shown}"
    elif kind == "string_type":
        text = f"{where} must be a string, not {_kind(value)}"
    elif kind == "string_too_long" and isinstance(value, str):
        text = (f"{where} has {plural(len(value), 'character')}; at most "
                f"{plural(MAX_TEXT, 'character')} are allowed")
    elif expected is not None or kind in _EXPECTED:
        text = f"{where} must be {expected or _EXPECTED[kind]}, not {_shown(value, query)}"
    elif kind in _BOUNDS and _BOUNDS[kind][0] in ctx:
        key, words = _BOUNDS[kind]
        bound = ctx[key]
        bound = int(bound) if isinstance(bound, float) and bound.is_integer() else bound
        text = f"{where} must be {words} {shorten(bound)}, not {_shown(value, query)}"
    else:
        msg = _lower_first(shorten(str(first.get("msg", "invalid value")), 120))
        text = f"{where}: {msg}"
    rest = errors[1:]
    # a field missing beside an unknown one is most often a misspelling ({"code": "12"} for
    # {"guess": "12"}): name the unknown ones too, not only "and 1 other problem"
    unknown = [str(e.get("loc", ("",))[-1]) for e in rest
               if e.get("type") == "extra_forbidden" and kind != "extra_forbidden"]
    if unknown:
        text += (f"; unknown field{'s' * (len(unknown) > 1)} "
                 f"{', '.join(repr(shorten(u)) for u in unknown[:3])} in the request body")
        if fields:
            text += f" (this endpoint takes {', '.join(fields)})"
        rest = [e for e in rest if e.get("type") != "extra_forbidden"]
    if rest:
        text += f" (and {plural(len(rest), 'other problem')})"
    return tidy(_sentence(text))


# ----------------------------------------------------------------------------- body limit
class BodyLimit:
    """ASGI middleware: refuse a request body over `max_bytes` with 413 before the app
    reads it: at once when Content-Length says so, else (chunked) as soon as the bytes
    received pass the limit. The body is read here and handed on to the app."""

    def __init__(self, app: Callable[..., Awaitable[None]], max_bytes: int = MAX_BODY_BYTES):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[..., Any],
                       send: Callable[..., Any]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name.lower() == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.max_bytes + 1
                if declared > self.max_bytes:
                    await self._refuse(send)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> Any:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Callable[..., Any]) -> None:
        detail = (f"the request body is over {MAX_BODY_BYTES:,} bytes; the web API takes at "
                  f"most {MAX_BODY_BYTES:,} bytes in one request.")
        response = JSONResponse({"detail": detail}, status_code=413,
                                headers={"connection": "close"})
        await response({"type": "http"}, _nothing, send)


async def _nothing() -> dict[str, Any]:
    return {"type": "http.disconnect"}


def _only_query(*names: str) -> Any:
    """A dependency refusing query parameters other than `names`."""

    def check(request: Request) -> None:
        for key in request.query_params:
            if key not in names:
                takes = (f"this endpoint takes {', '.join(names)}" if names
                         else "this endpoint takes none")
                raise KeypegError(f"unknown query parameter {shorten(key)!r}; {takes}.")

    return Depends(check)


# ----------------------------------------------------------------------------- the app
#: ReDoc's logo in its sidebar, fetched from its maker's CDN (see `_redoc_script`)
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
#: what it is replaced with: a blank image of the same shape, served from nowhere
BLANK_LOGO = ("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' "
              "height='1'/%3E")


@functools.cache
def _redoc_script() -> bytes:
    """fastapi-offline's copy of ReDoc, its CDN logo replaced by `BLANK_LOGO`."""
    path = resources.files("fastapi_offline") / "static" / "redoc.standalone.js"
    return path.read_bytes().replace(REDOC_LOGO.encode(), BLANK_LOGO.encode())


def create_app(store: Store | None = None, *, warm_up: bool = False) -> FastAPI:
    """Return the app, with its games in `store` (the default database when None). With
    `warm_up`, the kernels are compiled in the background as the server starts."""
    service = Service(store or Store())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if warm_up:
            threading.Thread(target=service.warm_up, daemon=True).start()
        yield

    # FastAPI's /docs and /redoc load Swagger UI and ReDoc from a CDN: a blank page offline
    # (keypeg serves on localhost, often without a network). fastapi-offline serves both
    # from the package instead.
    app = FastAPIOffline(
        static_url="/docs-assets",
        redoc_url=None,  # (its own below)
        title="keypeg",
        description="Exact Mastermind-family engine: play, hints, strategies, optimal trees. "
                    "Every error is {\"detail\": \"one sentence\"}.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.service = service
    app.add_middleware(BodyLimit)

    # fastapi-offline's ReDoc page, save that ReDoc's sidebar loads its maker's logo from
    # cdn.redoc.ly (a broken image offline, and a request off this machine): the script is
    # served with that address replaced by a blank image (the "API docs by Redocly" text
    # stays)
    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return get_redoc_html(openapi_url=app.openapi_url or "/openapi.json",
                              title="keypeg - ReDoc", with_google_fonts=False,
                              redoc_js_url="/redoc.standalone.js",
                              redoc_favicon_url="/docs-assets/favicon.png")

    @app.get("/redoc.standalone.js", include_in_schema=False)
    def redoc_script() -> Response:
        return Response(_redoc_script(), media_type="text/javascript")
    bodies: dict[str, type[BaseModel]] = {}

    @app.exception_handler(KeypegError)
    def keypeg_error(_: Request, exc: KeypegError) -> JSONResponse:
        detail = tidy(str(exc))
        if isinstance(exc, InconsistentHistoryError):
            return JSONResponse({
                "detail": detail,
                "error": "contradiction",
                "conflict": [i + 1 for i in exc.conflict],
                "suspects": [i + 1 for i in exc.suspects],
                "corrections": {str(i + 1): list(v) for i, v in exc.corrections.items()},
            }, status_code=422)
        status = 422
        if isinstance(exc, (GameNotFound, MatchNotFound)):
            status = 404
        elif isinstance(exc, (GameOver, MatchStateError)):
            status = 409
        elif isinstance(exc, LimitExceededError):
            status = 413
        elif isinstance(exc, ServerBusy):
            status = 429
        return JSONResponse({"detail": detail}, status_code=status)

    @app.exception_handler(RequestValidationError)
    def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        route = request.scope.get("route")
        model = bodies.get(getattr(route, "path", ""))
        fields = list(model.model_fields) if model is not None else None
        errors = list(exc.errors())
        # a body that is not JSON at all could not be parsed: 400, as documented (422 is
        # for values that parse but are wrong)
        unparsed = bool(errors) and all(e.get("type") == "json_invalid" for e in errors)
        return JSONResponse({"detail": validation_sentence(errors, fields)},
                            status_code=400 if unparsed else 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Any:
        path = shorten(request.url.path)
        detail = {
            400: "the request body could not be parsed as JSON.",
            404: f"nothing at {path}; the API is described at /docs.",
            405: f"{shorten(request.method)} is not allowed on {path}; the API is "
                 "described at /docs.",
        }.get(exc.status_code)
        if detail is None:
            return await http_exception_handler(request, exc)
        return JSONResponse({"detail": detail}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.get("/api/rules", summary="Every rules preset", responses=_errors(),
             dependencies=[_only_query()])
    def list_rules() -> list[dict[str, Any]]:
        return presets(service.store)

    @app.post("/api/games", summary="Start a game (the secret stays on the server)",
              description="Answers the game's id and rules, \"seeded\": whether a seed "
              "chose the secret (then predictable), and its \"prior\" and \"noise\". "
              "Under noise the answers to guesses may be wrong; once the game is over, its "
              "view, the last guess's answer and give-up list them as \"wrong_answers\": "
              "[{\"guess\": n, \"reported\", \"true\"}], guesses numbered from 1.",
              responses=_errors(*_BODY_ERRORS), dependencies=[_only_query()])
    def new_game(body: NewGame) -> dict[str, Any]:
        with _echoing(body):
            return service.new_game(body.rules, body.seed, body.prior, body.noise)

    @app.get("/api/games/{game_id}", summary="A game's history (the secret once over)",
             description="With its prior and noise; once over, the secret and (under "
             "noise) \"wrong_answers\".",
             responses=_errors(404), dependencies=[_only_query()])
    def get_game(game_id: str) -> dict[str, Any]:
        with _echoing(game_id):
            return service.game(game_id)

    @app.post("/api/games/{game_id}/guesses", summary="Play a guess",
              responses=_errors(404, 409, *_BODY_ERRORS), dependencies=[_only_query()])
    async def play(game_id: str, body: GuessIn) -> Any:
        # one filter from the cached position before: cheap, so no thread hop (a game not
        # in memory, after a restart, is rebuilt on the thread pool)
        with _echoing(game_id, body):
            if service.has_position(game_id):
                return JSONResponse(service.guess(game_id, body.guess))
            return JSONResponse(await run_in_threadpool(service.guess, game_id, body.guess))

    @app.post("/api/games/{game_id}/give-up", summary="End the game and reveal the secret",
              responses=_errors(404, *_BODY_ERRORS), dependencies=[_only_query()])
    def give_up(game_id: str, body: NoBody | None = None) -> dict[str, Any]:
        with _echoing(game_id):
            return service.give_up(game_id)

    @app.get("/api/games/{game_id}/hints", summary="Hints for the game's position",
             description="Under the game's prior and noise." + _BELIEF_ANSWER,
             responses=_errors(404, 413), dependencies=[_only_query()])
    async def game_hints(game_id: str) -> Any:
        # positions repeat: answer from the cache on the event loop, compute on the pool
        with _echoing(game_id):
            cached = service.cached_game_hints(game_id)
            if cached is None:
                cached = await run_in_threadpool(service.game_hints, game_id)
        return JSONResponse(cached)

    def belief(body: HintsIn | CutIn | WatchIn) -> Any:
        return service.belief(find_rules(body.rules), body.prior, body.noise)

    @app.post("/api/hints", summary="Hints for any position (assist mode)",
              description="Optionally under a prior and a noise model." + _BELIEF_ANSWER,
              responses=_errors(*_BODY_ERRORS), dependencies=[_only_query()])
    def hints(body: HintsIn) -> dict[str, Any]:
        with _echoing(body):
            return service.hints(body.rules, [list(c) for c in body.history], belief(body))

    @app.post("/api/optimal", summary="The optimal next guess, searched for longer than a "
              "hint may", description="For a position whose hint ran out of its second "
              "(\"optimal_longer\"): the optimal search runs for at most `seconds`. The "
              "answer has \"optimal\" (a strategy row) once proven, else null with "
              "\"optimal_note\" and \"best_found\" (the best guess found, as in hints); "
              "\"candidates\" and \"seconds\" (taken). Answers with no belief (plain "
              "clues). One such search runs at a time per server process (else 429); more "
              "than 600 candidates, or a game too big for a live search, is 413; a position "
              "already solved is 409.",
              responses=_errors(409, 429, *_BODY_ERRORS), dependencies=[_only_query()])
    def long_optimal(body: OptimalIn) -> dict[str, Any]:
        with _echoing(body):
            return service.long_optimal(body.rules, [list(c) for c in body.history],
                                        float(body.seconds))

    @app.post("/api/cut", summary="How a guess would cut the codes still possible",
              description="Under a prior or noise each part also has \"probability\": how "
              "likely that answer is (reported truly).",
              responses=_errors(*_BODY_ERRORS), dependencies=[_only_query()])
    def cut(body: CutIn) -> dict[str, Any]:
        with _echoing(body):
            return service.cut(body.rules, [list(c) for c in body.history], body.guess,
                               belief(body))

    @app.post("/api/watch/step", summary="A strategy's next guess against a chosen secret",
              description="The answers are true; under a prior or noise the strategy reads "
              "them with that belief: information (and, under noise, entropy, expsize, "
              "maxsize and parts) choose by belief (keypeg.bayes), consistent then plays "
              "the likeliest code, and optimal is refused under noise. Where the optimal "
              "guess is out of reach, optimal plays the best guess its search found, else "
              "entropy's: \"approximate\": true, with the reason in \"note\". A history "
              "whose answers are not the secret's is refused (422).",
              responses=_errors(409, *_BODY_ERRORS), dependencies=[_only_query()])
    def watch_step(body: WatchIn) -> dict[str, Any]:
        with _echoing(body):
            return service.watch_step(body.rules, body.strategy, body.secret,
                                      [list(c) for c in body.history], belief(body))

    @app.get("/api/watch/secret", summary="A random secret for Watch", responses=_errors(),
             dependencies=[_only_query("rules")])
    def watch_secret(rules: Annotated[str, Query(max_length=MAX_TEXT)] = "classic"
                     ) -> dict[str, str]:
        with _echoing(rules):
            return {"secret": service.random_secret(rules)}

    @app.get("/api/lab", summary="Every strategy's evaluation (exact, or labelled approximate)",
             responses=_errors(413), dependencies=[_only_query("rules")])
    def lab(rules: Annotated[str, Query(max_length=MAX_TEXT)] = "classic") -> dict[str, Any]:
        with _echoing(rules):
            return service.lab(rules)

    @app.get("/api/openings", summary="The first-guess table: every opening class under "
             "each strategy and the optimum",
             description="For every class of first guesses (codes up to colour and position "
             "permutations: AAAA, AAAB, ... ABCD), the total each one-step strategy reaches "
             "when it opens with the class's first code, and the optimal total with that "
             "opening (null where not found within 15 s). Games of at most 8,192 codes; "
             "else 413.", responses=_errors(413), dependencies=[_only_query("rules")])
    def openings(rules: Annotated[str, Query(max_length=MAX_TEXT)] = "classic"
                 ) -> dict[str, Any]:
        with _echoing(rules):
            return service.openings(rules)

    # ------------------------------------------------------------------ tree explorer
    tree_text = ("The tree is built once per rules and strategy and kept: one-step strategies "
                 "for games of at most 8,192 codes, the optimum from a shipped or stored tree "
                 "or a search of at most 15 s; else 413. rules is a preset or MM(pegs,colours); "
                 "strategy is optimal, consistent, maxsize, expsize, entropy or parts. ")

    @app.get("/api/tree", summary="One node of a strategy's decision tree (the explorer)",
             description=tree_text + "Answers the node (0 is the first guess): its guess, "
             "depth (the guess's number), size (secrets reaching it), total (their guesses "
             "in all, from the start of the game), mean, worst, from_here (guesses from this "
             "node on), candidate (whether the guess may be the secret), path (breadcrumbs "
             "from the root: node, guess, answer), codes (when at most 20), answers (one per "
             "answer the guess can get: answer, node, size, total, mean, worst, the next "
             "guess, win), and tree (the whole tree's numbers).",
             responses=_errors(413), dependencies=[_only_query("rules", "strategy", "node")])
    def tree_node(rules: Annotated[str, Query(max_length=MAX_TEXT)] = "classic",
                  strategy: Annotated[str, Query(max_length=MAX_TEXT)] = "optimal",
                  node: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0) -> dict[str, Any]:
        with _echoing(rules, strategy):
            return service.tree_node(rules, strategy, node)

    @app.get("/api/tree/path", summary="The path of one secret through a strategy's tree",
             description=tree_text + "Answers path: the nodes the secret passes through, "
             "root first (node, guess, answer), the last one finding it, and guesses (how "
             "many the secret needs).",
             responses=_errors(413), dependencies=[_only_query("rules", "strategy", "secret")])
    def tree_path(secret: Annotated[str, Query(max_length=MAX_TEXT)],
                  rules: Annotated[str, Query(max_length=MAX_TEXT)] = "classic",
                  strategy: Annotated[str, Query(max_length=MAX_TEXT)] = "optimal"
                  ) -> dict[str, Any]:
        with _echoing(rules, strategy, secret):
            return service.tree_path(rules, strategy, secret)

    # ------------------------------------------------------------------ matches
    view_text = ("Answers the match's view: rules, games, rows, scoring, max_points, players "
                 "(A and B), played (per game: number, breaker, maker, answering, history, "
                 "pending, over, solved, gave_up, forfeit, points, secret once over, outcome "
                 "once over), current, phase (secret, guess, answer or over), to_move (A, B "
                 "or null), scores, over, winner, result, and events (the outcome of each "
                 "game that ended in this request). No secret of a game in play.")

    @app.post("/api/matches", summary="Start a two-player match",
              description="Player A breaks the code in game 1 and makes it in game 2, and so "
              "on; the codemaker scores. The computer's moves are made at once. " + view_text,
              responses=_errors(413, *_BODY_ERRORS), dependencies=[_only_query()])
    def new_match(body: NewMatch) -> dict[str, Any]:
        with _echoing(body):
            return service.new_match(body.rules, body.games, body.opponent, body.codemaker,
                                     body.scoring, body.players, body.names, body.seed)

    @app.get("/api/matches/{match_id}", summary="A match's view (no secret of a game in play)",
             description=view_text, responses=_errors(404, why=_MATCH_WHY),
             dependencies=[_only_query()])
    def get_match(match_id: str) -> dict[str, Any]:
        with _echoing(match_id):
            return service.match(match_id)

    move_errors = _errors(404, 409, *_BODY_ERRORS, why=_MATCH_WHY)

    @app.post("/api/matches/{match_id}/secret", summary="Choose the secret (the codemaker)",
              description="Then the computer, if it breaks the code, plays at once. "
              + view_text, responses=move_errors, dependencies=[_only_query()])
    def match_secret(match_id: str, body: SecretIn) -> dict[str, Any]:
        with _echoing(match_id, body):
            return service.match_secret(match_id, body.secret, body.answering)

    @app.post("/api/matches/{match_id}/guesses", summary="Play a guess (the codebreaker)",
              description="Answered at once, unless the codemaker answers by hand (then "
              "\"pending\" holds it). " + view_text, responses=move_errors,
              dependencies=[_only_query()])
    def match_guess(match_id: str, body: GuessIn) -> dict[str, Any]:
        with _echoing(match_id, body):
            return service.match_guess(match_id, body.guess)

    @app.post("/api/matches/{match_id}/answers",
              summary="Answer the pending guess by hand (the codemaker)",
              description="An answer no code fits together with the earlier answers is "
              "refused (422, \"error\": \"contradiction\", \"conflict\": the answers it "
              "conflicts with, \"corrections\": what it could have been) and nothing is "
              "recorded. " + view_text, responses=move_errors, dependencies=[_only_query()])
    def match_answer(match_id: str, body: AnswerIn) -> dict[str, Any]:
        with _echoing(match_id, body):
            return service.match_answer(match_id, body.answer, body.guess)

    @app.post("/api/matches/{match_id}/give-up", summary="Give up the game in play (the "
              "codebreaker)", description="The codemaker scores max_points. " + view_text,
              responses=move_errors, dependencies=[_only_query()])
    def match_give_up(match_id: str, body: NoBody | None = None) -> dict[str, Any]:
        with _echoing(match_id):
            return service.match_give_up(match_id)

    @app.get("/api/value", summary="The exact game value and both optimal mixtures",
             description="As keypeg value --json: value (P/Q), mean, certified, codemaker "
             "(per class of secrets: codes, probability, codebreaker_cost), codebreaker "
             "(per tree: probability, first_guess, costs per class), and \"stored\": true "
             "when keypeg ships it. Else computed here for at most "
             f"{LIVE_VALUE_CODES:,} codes within {LIVE_VALUE_SECONDS:g} s, else 413 (use "
             "keypeg value).", responses=_errors(413), dependencies=[_only_query("rules")])
    def value(rules: Annotated[str, Query(max_length=MAX_TEXT)] = "classic") -> dict[str, Any]:
        with _echoing(rules):
            return service.value(rules)

    for path, model in (("/api/games", NewGame), ("/api/games/{game_id}/guesses", GuessIn),
                        ("/api/hints", HintsIn), ("/api/cut", CutIn),
                        ("/api/optimal", OptimalIn),
                        ("/api/watch/step", WatchIn), ("/api/matches", NewMatch),
                        ("/api/matches/{match_id}/secret", SecretIn),
                        ("/api/matches/{match_id}/guesses", GuessIn),
                        ("/api/matches/{match_id}/answers", AnswerIn),
                        ("/api/games/{game_id}/give-up", NoBody),
                        ("/api/matches/{match_id}/give-up", NoBody)):
        bodies[path] = model

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


# ----------------------------------------------------------------------------- workers
def exit_with_parent(parent: int, *, grace: float = 10.0, interval: float = 0.5,
                     use_prctl: bool = True) -> None:
    """Make this process end when `parent` does (so a `kill -9` of `keypeg serve` frees
    the port): on Linux the kernel sends SIGTERM (prctl PR_SET_PDEATHSIG); everywhere a
    watchdog thread notices the new parent id, sends SIGTERM if the kernel did not, and
    ends the process outright if it is still there `grace` seconds later."""
    kernel = False
    if use_prctl and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            kernel = libc.prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0) == 0
        except (OSError, AttributeError):
            kernel = False
    if os.getppid() != parent:  # the parent died before the kernel was told
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        if not kernel:
            os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(grace)
        os._exit(1)

    threading.Thread(target=watch, name="keypeg-parent-watch", daemon=True).start()


def serve_app() -> FastAPI:
    """Build the app for one server process (`keypeg serve` runs one or more)."""
    parent = os.environ.get(SERVE_PARENT_ENV, "")
    if parent.isdigit() and int(parent) != os.getpid():
        exit_with_parent(int(parent))
    # requests on the event loop and work on the thread pool share the GIL: hand it over
    # every millisecond rather than every five, so short requests wait less
    sys.setswitchinterval(0.001)
    return create_app(warm_up=True)
