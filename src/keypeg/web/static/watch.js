/* Watch: one strategy plays against a secret you choose, a guess at a time. */

import * as api from "./api.js";
import { boardLegend, codeEl, rowEl } from "./board.js";
import { $, clearMessage, count, delay, el, fmt, reportError, showMessage, store } from "./dom.js";
import { N, S, modes, shortTitle } from "./state.js";

const DELAY_MS = 220;
const MAX_STEPS = 60;
const fresh = () => ({ history: [], secret: null, running: false, solved: false,
  approximate: false, candidates: null, busy: false, noted: false, note: null });
let W = fresh();

export function setupWatch() {
  $("#watch-step").addEventListener("click", () => {
    clearMessage();
    step();
  });
  $("#watch-play").addEventListener("click", play);
  $("#watch-reset").addEventListener("click", () => {
    clearMessage();
    store.set(savedKey(), "");
    restore();
  });
  $("#watch-random").addEventListener("click", randomSecret);
  $("#watch-secret").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      play();
    }
  });
  // new rules: a secret typed or drawn under the old ones is not one of their codes (it had
  // stayed in the box, and Bulls and Cows then refused Mastermind's 1122)
  modes.watch = { reset: () => {
    $("#watch-secret").value = "";
    boardLegend($("#watch-legend"));
    restore();
  } };
}

// The game watched is kept in the browser per rules, as Play, Assist and Match keep theirs
// (a reload had lost the board, the secret and the strategy).
const savedKey = () => `keypeg.watch.${S.rules.name}`;

function save(w) {
  store.set(savedKey(), JSON.stringify({ strategy: $("#watch-strategy").value,
    secret: w.secret, history: w.history, solved: w.solved, candidates: w.candidates,
    approximate: w.approximate }));
}

/** A fresh board for the rules, or the one watched last under them. */
function restore() {
  W = fresh();
  if (!S.rules) return;
  $("#watch-secret").placeholder = `e.g. ${N().example()}`;
  let saved = null;
  try {
    saved = JSON.parse(store.get(savedKey(), "") || "null");
  } catch (_) {
    saved = null;
  }
  const options = [...$("#watch-strategy").options].map((o) => o.value);
  if (saved && typeof saved.secret === "string" && Array.isArray(saved.history)
      && saved.history.length && options.includes(saved.strategy)
      && saved.history.every((p) => Array.isArray(p) && p.length === 2
        && p.every((x) => typeof x === "string"))) {
    $("#watch-strategy").value = saved.strategy;
    $("#watch-secret").value = saved.secret;
    Object.assign(W, { secret: saved.secret, history: saved.history,
      solved: Boolean(saved.solved), approximate: Boolean(saved.approximate),
      candidates: Number.isFinite(saved.candidates) ? saved.candidates : null });
  }
  render();
}

const locked = () => W.history.length > 0 || W.running;

function render() {
  const w = W;
  const max = S.rules.max_guesses;
  const name = $("#watch-strategy").value;
  $("#watch-board").replaceChildren(...w.history.map(([g, f], i) =>
    rowEl(g, f, i, max && i >= max ? "beyond" : "")));
  $("#watch-board").dataset.rows = String(w.history.length);
  for (const id of ["#watch-secret", "#watch-strategy", "#watch-random"]) $(id).disabled = locked();
  $("#watch-step").disabled = w.solved || w.running || w.busy;
  $("#watch-play").disabled = w.solved;
  $("#watch-play").textContent = w.running ? "Stop" : "Play to the end";
  const view = $("#watch-secret-view");
  view.hidden = !(locked() && w.secret);
  if (!view.hidden) {
    view.replaceChildren(el("span", { class: "label-text", text: "Secret" }), codeEl(w.secret),
      el("span", { class: "code-text", text: w.secret }));
  }
  const status = $("#watch-status");
  const n = w.history.length;
  status.dataset.guesses = String(n);
  const approx = w.approximate ? " · approximate play" : "";
  if (w.solved) {
    status.dataset.state = "solved";
    const beyond = max && n > max ? ` (more than the board's ${max} rows)` : "";
    status.textContent = `${name} solved it in ${count(n, "guess")}${beyond}${approx}`;
  } else if (w.busy) {
    status.dataset.state = "running";
    status.textContent = `${name} is choosing guess ${n + 1}…`;
  } else if (n) {
    status.dataset.state = w.running ? "running" : "paused";
    status.textContent = `${count(n, "guess")} · ${count(w.candidates, "code")} still possible${approx}`;
  } else {
    status.dataset.state = w.running ? "running" : "idle";
    status.textContent = "Choose a strategy and a secret, then Step or Play.";
  }
}

/** Play one step; returns true when another step may follow. */
async function step() {
  const w = W;
  if (w.solved || w.busy) return false;
  const n = N();
  if (!w.history.length) {
    const raw = $("#watch-secret").value.trim();
    const { code, rejected } = n.read(raw);
    // (Play's typing hints had been borrowed: "this one is full: press Enter to play it",
    // and "it needs 4 colours" for a code of 4 pegs)
    const typed = [...raw].filter((ch) => !n.isSeparator(ch)).length;
    const wrong = rejected.find((r) => !r.includes("this one is full"));
    if (code.length !== n.pegs || wrong || typed !== n.pegs) {
      const peg = n.digits ? "digit" : "peg";
      showMessage(raw
        ? `the secret ${raw} is not a code of ${shortTitle(S.rules)}: ${wrong || `a code has ${count(n.pegs, peg)}, not ${fmt(typed)}.`} Type another or press Random.`
        : "type a secret or press Random first.", "error");
      return false;
    }
    w.secret = code;
    $("#watch-secret").value = code;
  }
  const rules = S.rules.name;
  w.busy = true;
  render();
  try {
    const res = await api.watchStep(rules, $("#watch-strategy").value, w.secret, w.history);
    if (W !== w || S.rules.name !== rules) return false;
    w.history.push([res.guess, res.feedback]);
    w.solved = res.solved;
    w.candidates = res.candidates;
    w.approximate = w.approximate || res.approximate;
    // why the play is approximate (optimal out of reach): once, and brought up to date while
    // it is still the message shown (its "(531,441 are now)" had stayed as codes went)
    if (res.note && (!w.noted || (w.note && $("#message-text").textContent === w.note))) {
      w.noted = true;
      showMessage(res.note, "info");
      w.note = $("#message-text").textContent;
    } else if (!res.approximate && w.note) {
      // the optimum is in reach again: its "N are now" no longer holds (the status line
      // keeps "approximate play" for the guesses before); not another message shown since
      if ($("#message-text").textContent === w.note) clearMessage();
      w.note = null;
    }
    if (!w.solved && w.history.length >= MAX_STEPS) {
      showMessage(`stopped after ${count(MAX_STEPS, "guess")}.`, "error");
      return false;
    }
    return !w.solved;
  } catch (err) {
    if (W === w) reportError(err, "watch step failed");
    return false;
  } finally {
    w.busy = false;
    if (W === w) {
      if (w.history.length) save(w);
      render();
    }
  }
}

async function play() {
  const w = W;
  if (w.running) {
    w.running = false;
    render();
    return;
  }
  clearMessage();
  w.running = true;
  render();
  while (W === w && w.running) {
    const more = await step();
    if (!more || !w.running) break;
    await delay(DELAY_MS);
  }
  w.running = false;
  if (W === w) render();
}

async function randomSecret() {
  try {
    const res = await api.watchSecret(S.rules.name);
    $("#watch-secret").value = res.secret;
    clearMessage();
  } catch (err) {
    reportError(err, "no random secret");
  }
}
