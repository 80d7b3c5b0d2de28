"""The web app: a JSON API (FastAPI) and one static page.

Routes are plain `def` functions, so FastAPI runs each request on its thread pool; the
compiled kernels release the GIL, and a slow request does not stall the others. Bad input
is a 422 with ``{"detail": "one sentence"}`` (contradictory clues add "conflict",
"suspects" and "corrections", clue numbers from 1); an unknown game 404; a finished game
409; a request too expensive to answer in time 413 (or an answer labelled approximate).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ..errors import InconsistentHistoryError, KeypegError, LimitExceededError
from ..store import Store
from .service import GameNotFound, GameOver, Service, presets

STATIC = resources.files("keypeg") / "web" / "static"


class NewGame(BaseModel):
    rules: str = Field("classic", description="A rules preset, e.g. classic or codebreaker-4.")
    seed: int | None = Field(None, description="Seed for the secret (tests and replays).")


class GuessIn(BaseModel):
    guess: str = Field(..., description="A code in the rules' notation, e.g. 1122.")


class CutIn(BaseModel):
    rules: str = "classic"
    history: list[list[str]] = Field(default_factory=list,
                                     description="[[guess, feedback], ...] so far.")
    guess: str


class HintsIn(BaseModel):
    rules: str = "classic"
    history: list[list[str]] = Field(default_factory=list)


class WatchIn(BaseModel):
    rules: str = "classic"
    strategy: str = "maxsize"
    secret: str
    history: list[list[str]] = Field(default_factory=list)


def create_app(store: Store | None = None, *, warm_up: bool = False) -> FastAPI:
    """Return the app, with its games in `store` (the default database when None). With
    `warm_up`, the kernels are compiled in the background as the server starts."""
    service = Service(store or Store())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if warm_up:
            threading.Thread(target=service.warm_up, daemon=True).start()
        yield

    app = FastAPI(
        title="keypeg",
        description="Exact Mastermind-family engine: play, hints, strategies, optimal trees.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.service = service

    @app.exception_handler(KeypegError)
    def keypeg_error(_: Request, exc: KeypegError) -> JSONResponse:
        if isinstance(exc, InconsistentHistoryError):
            return JSONResponse({
                "detail": str(exc),
                "error": "contradiction",
                "conflict": [i + 1 for i in exc.conflict],
                "suspects": [i + 1 for i in exc.suspects],
                "corrections": {str(i + 1): list(v) for i, v in exc.corrections.items()},
            }, status_code=422)
        status = 422
        if isinstance(exc, GameNotFound):
            status = 404
        elif isinstance(exc, GameOver):
            status = 409
        elif isinstance(exc, LimitExceededError):
            status = 413
        return JSONResponse({"detail": str(exc)}, status_code=status)

    @app.exception_handler(RequestValidationError)
    def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        text = "the request is not valid for this endpoint."
        if errors:
            first = errors[0]
            names = [str(x) for x in first.get("loc", ()) if isinstance(x, str) and x != "body"]
            where = ".".join(names) or "request body"
            msg = str(first.get("msg", "invalid value"))
            text = f"{where}: {msg[:1].lower() + msg[1:]}."
        return JSONResponse({"detail": text}, status_code=422)

    @app.get("/api/rules", summary="Every rules preset")
    def list_rules() -> list[dict[str, Any]]:
        return presets()

    @app.post("/api/games", summary="Start a game (the secret stays on the server)")
    def new_game(body: NewGame) -> dict[str, Any]:
        return service.new_game(body.rules, body.seed)

    @app.get("/api/games/{game_id}", summary="A game's history (the secret once over)")
    def get_game(game_id: str) -> dict[str, Any]:
        return service.game(game_id)

    @app.post("/api/games/{game_id}/guesses", summary="Play a guess")
    async def play(game_id: str, body: GuessIn) -> Any:
        # one filter from the cached position before: cheap, so no thread hop (a game not
        # in memory, after a restart, is rebuilt on the thread pool)
        if service.has_position(game_id):
            return JSONResponse(service.guess(game_id, body.guess))
        return JSONResponse(await run_in_threadpool(service.guess, game_id, body.guess))

    @app.get("/api/games/{game_id}/hints", summary="Hints for the game's position")
    async def game_hints(game_id: str) -> Any:
        # positions repeat: answer from the cache on the event loop, compute on the pool
        cached = service.cached_game_hints(game_id)
        if cached is None:
            cached = await run_in_threadpool(service.game_hints, game_id)
        return JSONResponse(cached)

    @app.post("/api/hints", summary="Hints for any position (assist mode)")
    def hints(body: HintsIn) -> dict[str, Any]:
        return service.hints(body.rules, body.history)

    @app.post("/api/cut", summary="How a guess would cut the codes still possible")
    def cut(body: CutIn) -> dict[str, Any]:
        return service.cut(body.rules, body.history, body.guess)

    @app.post("/api/watch/step", summary="A strategy's next guess against a chosen secret")
    def watch_step(body: WatchIn) -> dict[str, Any]:
        return service.watch_step(body.rules, body.strategy, body.secret, body.history)

    @app.get("/api/watch/secret", summary="A random secret for Watch")
    def watch_secret(rules: str = Query("classic")) -> dict[str, str]:
        return {"secret": service.random_secret(rules)}

    @app.get("/api/lab", summary="Every strategy's evaluation (exact, or labelled approximate)")
    def lab(rules: str = Query("classic")) -> dict[str, Any]:
        return service.lab(rules)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


def serve_app() -> FastAPI:
    """Build the app for one server process (`keypeg serve` runs one or more)."""
    import sys

    # requests on the event loop and work on the thread pool share the GIL: hand it over
    # every millisecond rather than every five, so short requests wait less
    sys.setswitchinterval(0.001)
    return create_app(warm_up=True)
