/* The JSON API, one function per call. An error answer becomes an ApiError carrying the
 * server's one-sentence "detail" (and, for contradictory clues, "conflict" and "suspects",
 * clue numbers from 1). */

export class ApiError extends Error {
  constructor(status, detail, body = null) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.body = body || {};
  }
}

const LONG_MS = 120_000;

async function request(method, path, body, { timeoutMs = 0 } = {}) {
  let res;
  const abort = new AbortController();
  const timer = timeoutMs ? setTimeout(() => abort.abort(), timeoutMs) : null;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: abort.signal,
    });
  } catch (e) {
    if (abort.signal.aborted) {
      throw new ApiError(0, `the server did not answer within ${Math.round(timeoutMs / 1000)} s.`);
    }
    // (with what to do: it had named the browser's error alone)
    throw new ApiError(0, `could not reach the keypeg server (${e.message}); check that `
      + "keypeg serve is still running, then try again: nothing was lost.");
  } finally {
    if (timer) clearTimeout(timer);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (_) {
    data = null;
  }
  if (!res.ok) {
    const detail = data && typeof data.detail === "string"
      ? data.detail
      : `the server answered HTTP ${res.status} ${res.statusText}${text ? ": " + text.slice(0, 200) : ""}.`;
    throw new ApiError(res.status, detail, data);
  }
  if (data === null) throw new ApiError(res.status, "the server sent an answer that is not JSON.");
  return data;
}

const q = encodeURIComponent;

/** Every rules preset, with its notation (symbols, letters, colour names, key-peg terms). */
export const rules = () => request("GET", "/api/rules");

/** Start a game; the secret stays on the server (the page never sends a seed). */
export const newGame = (rulesName) => request("POST", "/api/games", { rules: rulesName });

/** A game's history and whether it is over (the secret once it is). */
export const game = (id) => request("GET", `/api/games/${q(id)}`);

export const guess = (id, code) => request("POST", `/api/games/${q(id)}/guesses`, { guess: code });

/** End the game without solving it; the answer reveals the secret. */
export const giveUp = (id) => request("POST", `/api/games/${q(id)}/give-up`);

export const gameHints = (id) => request("GET", `/api/games/${q(id)}/hints`);

/** Hints for any position; `belief` may add a prior and a noise model ({ noise: ... }). */
export const hints = (rulesName, history, belief = {}) => request("POST", "/api/hints",
  { rules: rulesName, history, ...belief });

/** The optimal next guess of a plain position, searched for at most `seconds`. */
export const optimal = (rulesName, history, seconds) => request("POST", "/api/optimal",
  { rules: rulesName, history, seconds }, { timeoutMs: LONG_MS });

export const cut = (rulesName, history, code, belief = {}) => request("POST", "/api/cut",
  { rules: rulesName, history, guess: code, ...belief });

export const watchStep = (rulesName, strategy, secret, history) => request("POST",
  "/api/watch/step", { rules: rulesName, strategy, secret, history }, { timeoutMs: LONG_MS });

export const watchSecret = (rulesName) => request("GET", `/api/watch/secret?rules=${q(rulesName)}`);

export const lab = (rulesName) => request("GET", `/api/lab?rules=${q(rulesName)}`, undefined,
  { timeoutMs: LONG_MS });

/* Two-player matches: every call answers the match's view (no secret of a game in play),
 * with "events", the outcome of each game that ended in that call. The computer's moves are
 * made within the call, so a move may take a while in big games. */
export const newMatch = (options) => request("POST", "/api/matches", options,
  { timeoutMs: LONG_MS });

export const match = (id) => request("GET", `/api/matches/${q(id)}`);

export const matchSecret = (id, secret, answering) => request("POST",
  `/api/matches/${q(id)}/secret`, { secret, answering }, { timeoutMs: LONG_MS });

export const matchGuess = (id, code) => request("POST", `/api/matches/${q(id)}/guesses`,
  { guess: code }, { timeoutMs: LONG_MS });

export const matchAnswer = (id, answer, guess) => request("POST",
  `/api/matches/${q(id)}/answers`, { answer, guess }, { timeoutMs: LONG_MS });

export const matchGiveUp = (id) => request("POST", `/api/matches/${q(id)}/give-up`, undefined,
  { timeoutMs: LONG_MS });

/** The game value of some rules (shipped, or computed for small games), or a 413. */
export const value = (rulesName) => request("GET", `/api/value?rules=${q(rulesName)}`, undefined,
  { timeoutMs: LONG_MS });

/** The first-guess table: every opening class under each strategy and the optimum. */
export const openings = (rulesName) => request("GET", `/api/openings?rules=${q(rulesName)}`,
  undefined, { timeoutMs: LONG_MS });

/** One node of a strategy's tree (0: the first guess), with its answers and the path to it. */
export const treeNode = (rulesName, strategy, node = 0) => request("GET",
  `/api/tree?rules=${q(rulesName)}&strategy=${q(strategy)}&node=${q(node)}`, undefined,
  { timeoutMs: LONG_MS });

/** The nodes a secret passes through in a strategy's tree, root first. */
export const treePath = (rulesName, strategy, secret) => request("GET",
  `/api/tree/path?rules=${q(rulesName)}&strategy=${q(strategy)}&secret=${q(secret)}`,
  undefined, { timeoutMs: LONG_MS });
