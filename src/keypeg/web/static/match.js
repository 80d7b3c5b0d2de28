/* Match: two players over an even number of games, taking turns as codebreaker and
 * codemaker; only the codemaker scores (keypeg.match). Against the computer, or two people
 * on one screen, where a "hand the device over" screen hides each secret before the other
 * player guesses. The server keeps the match (and every secret until its game is over);
 * the page keeps only the match id, in localStorage, so a reload resumes it. The start
 * screen also shows the game value of the rules (/api/value). */

import * as api from "./api.js";
import { codeWithText, emptyRowEl, marksLegend, rowEl, symbolEl } from "./board.js";
import { $, clearMessage, count, el, fmt, reportError, sentence, store } from "./dom.js";
import { CodeEntry } from "./entry.js";
import { N, S, modes } from "./state.js";

const KEY = "keypeg.match";
const M = {
  view: null, // the match's view from the server, or null on the start screen
  other: null, // a stored match under other rules (offered on the start screen)
  loaded: false, // the stored match was looked up for the current rules
  busy: false,
  loading: false, // the stored match is being looked up
  events: [], // outcome sentences of the games that ended in the last move
  ack: "", // the hand-over screen passed: "maker:N" (before the secret of game N)
  handover: "", // "breaker:N": the secret of game N was set; the device goes to the breaker
  conflict: [], // board rows (from 0) a refused answer conflicts with
  marks: [],
  seq: 0,
};
const values = new Map();
let valueSeq = 0;
let guessEntry = null;
let secretEntry = null;

/* ------------------------------------------------------------------ words */
const nameOf = (v, side) => v.players[side].name;
const isPerson = (v, side) => v.players[side].kind === "person";
const twoPeople = (v) => isPerson(v, "A") && isPerson(v, "B");
const isYou = (name) => name.trim().toLowerCase() === "you";
/** "you break", "Ada breaks". */
const says = (name, verb) => `${name} ${isYou(name) ? verb.replace(/s$/, "") : verb}`;
/** "your", "Ada's". */
const whose = (name) => (isYou(name) ? "your" : `${name}'s`);
const inPlay = (v) => (v.current ? v.played[v.current - 1] : null);
const lastOver = (v) => [...v.played].reverse().find((g) => g.over) || null;

/* ------------------------------------------------------------------ setup */
export function setupMatch() {
  guessEntry = new CodeEntry({
    input: $("#match-guess-input"), palette: $("#match-palette"), slots: $("#match-guess-slots"),
    note: $("#match-guess-note"), prefix: "match-palette",
    onChange: renderControls, onEnter: submitGuess,
    locked: () => (M.busy ? "wait for the answer to the last move." : null),
  });
  secretEntry = new CodeEntry({
    input: $("#match-secret-input"), palette: $("#match-secret-palette"),
    note: $("#match-secret-note"), prefix: "match-secret-palette",
    onChange: renderControls, onEnter: () => submitSecret(),
    locked: () => (M.busy ? "wait for the answer to the last move." : null),
  });
  $("#match-form").addEventListener("submit", (e) => {
    e.preventDefault();
    startMatch();
  });
  for (const radio of document.querySelectorAll("input[name=match-players]")) {
    radio.addEventListener("change", renderForm);
  }
  $("#match-new").addEventListener("click", leaveMatch);
  $("#match-give-up").addEventListener("click", giveUp);
  $("#match-backspace").addEventListener("click", () => {
    guessEntry.backspace();
    guessEntry.focus();
  });
  $("#match-submit-guess").addEventListener("click", submitGuess);
  $("#match-submit-secret").addEventListener("click", () => submitSecret());
  $("#match-secret-random").addEventListener("click", () => submitSecret("random"));
  $("#match-secret-show").addEventListener("change", (e) => {
    $("#match-secret-input").type = e.target.checked ? "text" : "password";
  });
  $("#match-submit-answer").addEventListener("click", submitAnswer);
  $("#match-handover-ok").addEventListener("click", () => {
    const v = M.view;
    if (M.handover) M.handover = "";
    else if (v) M.ack = `maker:${v.current}`;
    render();
    if (M.view && M.view.phase === "secret") secretEntry.focus();
    else guessEntry.focus();
  });
  $("#match-resume-button").addEventListener("click", resumeOther);
  modes.match = { enter, reset };
}

/** New rules: new palettes and answer form; the match shown only if it is under them. */
function reset() {
  const n = N();
  guessEntry.rebuild();
  secretEntry.rebuild();
  $("#match-secret-input").placeholder = "the secret";
  $("#match-answer-bw").hidden = n.positional;
  $("#match-answer-pos").hidden = !n.positional;
  $("#match-black-label").textContent = sentence(n.term("black", 2));
  $("#match-white-label").textContent = sentence(n.term("white", 2));
  const opts = () => Array.from({ length: n.pegs + 1 }, (_, i) => el("option", { value: i, text: String(i) }));
  $("#match-black").replaceChildren(...opts());
  $("#match-white").replaceChildren(...opts());
  $("#match-rules").textContent = S.rules.title || S.rules.name;
  if (M.view && M.view.rules !== S.rules.name) M.view = null;
  M.loaded = false;
  M.other = null;
  M.seq += 1; // a lookup under the old rules is out of date
  M.loading = false;
  if (S.mode === "match") load();
}

function enter() {
  if (!M.loaded) load();
  else render();
}

/* ------------------------------------------------------------------ the stored match */
const storedId = () => store.get(KEY, "") || "";

/** Look up the stored match: shown when it is under the selected rules, else offered. */
async function load() {
  const s = ++M.seq;
  M.loaded = true;
  const id = storedId();
  if (!id || (M.view && M.view.id === id)) {
    render();
    return;
  }
  M.loading = true;
  render();
  try {
    const view = await api.match(id);
    if (s !== M.seq) return;
    if (view.rules === S.rules.name) {
      M.view = view;
      M.events = [];
    } else {
      M.other = view.over ? null : view;
    }
  } catch (err) {
    if (s !== M.seq) return;
    if (err.status === 404) store.set(KEY, "");
    else reportError(err, "could not load the match");
  } finally {
    if (s === M.seq) M.loading = false;
  }
  render();
}

function resumeOther() {
  const v = M.other;
  if (!v) return;
  const select = $("#rules-select");
  select.value = v.rules;
  select.dispatchEvent(new Event("change"));
}

function leaveMatch() {
  const v = M.view;
  if (v && !v.over && !window.confirm("Leave this match? It cannot be resumed afterwards.")) return;
  store.set(KEY, "");
  M.view = null;
  M.events = [];
  M.conflict = [];
  clearMessage();
  render();
}

/** A move's answer: the new view, and the outcome of each game it ended. */
function apply(view) {
  M.view = view;
  M.events = view.events || [];
  store.set(KEY, view.id);
  render();
}

/** Run a move; true once its answer is shown. A 409 (out of turn, or changed in another
 * window) reloads the match; an error is shown as a message, except a 422 when `own422`
 * (the caller shows it next to its form). */
async function send(what, call, { own422 = false } = {}) {
  if (M.busy || !M.view) return false;
  const id = M.view.id;
  M.busy = true;
  clearMessage();
  render();
  try {
    const view = await call(id);
    M.busy = false;
    if (!M.view || M.view.id !== id) return false;
    apply(view);
    return true;
  } catch (err) {
    M.busy = false;
    if (err.status === 409 && M.view && M.view.id === id) {
      try {
        M.view = await api.match(id);
        M.events = [];
      } catch (_) {
        /* keep what we have */
      }
    }
    render();
    if (!(own422 && err.status === 422)) reportError(err, what);
    throw err;
  }
}

/* ------------------------------------------------------------------ starting */
function formOptions() {
  const players = document.querySelector("input[name=match-players]:checked").value;
  const options = {
    rules: S.rules.name,
    games: Number($("#match-games").value),
    scoring: $("#match-scoring").value,
    players,
  };
  if (players === "computer") {
    options.opponent = $("#match-opponent").value;
    options.codemaker = $("#match-codemaker").value;
  } else {
    const a = $("#match-name-a").value.trim();
    const b = $("#match-name-b").value.trim();
    if (a || b) options.names = [a || "player A", b || "player B"];
  }
  return options;
}

async function startMatch() {
  if (M.busy) return;
  clearMessage();
  M.busy = true;
  renderForm();
  try {
    const view = await api.newMatch(formOptions());
    M.busy = false;
    M.ack = "";
    M.handover = "";
    M.conflict = [];
    M.other = null;
    apply(view);
    guessEntry.set("", { quiet: true });
    secretEntry.set("", { quiet: true });
    renderControls();
    guessEntry.focus();
  } catch (err) {
    M.busy = false;
    renderForm();
    reportError(err, "could not start the match");
  }
}

/* ------------------------------------------------------------------ moves */
async function submitGuess() {
  const v = M.view;
  if (!v || M.busy || v.phase !== "guess") return;
  const code = guessEntry.code;
  const n = N();
  if (code.length !== n.pegs) {
    guessEntry.reject(`a guess needs ${count(n.pegs, n.digits ? "digit" : "peg")}; this one has ${code.length}.`);
    return;
  }
  try {
    if (!(await send(`guess ${code} not played`, (id) => api.matchGuess(id, code)))) return;
    guessEntry.set("", { quiet: true });
    renderControls();
    guessEntry.focus();
  } catch (_) {
    /* shown */
  }
}

async function submitSecret(random = null) {
  const v = M.view;
  if (!v || M.busy || v.phase !== "secret") return;
  const code = random || secretEntry.code;
  const n = N();
  if (!random && code.length !== n.pegs) {
    secretEntry.reject(`a secret needs ${count(n.pegs, n.digits ? "digit" : "peg")}; this one has ${code.length}.`);
    return;
  }
  const answering = document.querySelector("input[name=match-answering]:checked").value;
  const game = v.current;
  const people = twoPeople(v);
  try {
    if (!(await send("the secret was not set", (id) => api.matchSecret(id, code, answering)))) {
      return;
    }
  } catch (_) {
    return;
  }
  // the page forgets the secret at once; between two people the device changes hands
  secretEntry.set("", { quiet: true });
  $("#match-secret-show").checked = false;
  $("#match-secret-input").type = "password";
  if (people && M.view && !M.view.over && M.view.current === game) {
    M.handover = `breaker:${game}`;
  }
  render();
}

function answerText() {
  const n = N();
  if (n.positional) return n.format(M.marks);
  return n.format([Number($("#match-black").value), Number($("#match-white").value)]);
}

async function submitAnswer() {
  const v = M.view;
  if (!v || M.busy || v.phase !== "answer") return;
  const answer = answerText();
  const note = $("#match-answer-note");
  try {
    const sent = await send(`answer ${answer} not given`, (id) => api.matchAnswer(id, answer),
      { own422: true });
    if (!sent) return;
    M.conflict = [];
    note.hidden = true;
    note.textContent = "";
    render();
  } catch (err) {
    if (err.status !== 422) return;
    // refused: say why, and outline the earlier answers it conflicts with
    const made = inPlay(M.view);
    const mine = made ? made.history.length + 1 : 0;
    M.conflict = (err.body.conflict || []).filter((i) => i !== mine).map((i) => i - 1);
    note.textContent = sentence(err.detail);
    note.hidden = false;
    render();
  }
}

async function giveUp() {
  const v = M.view;
  if (!v || M.busy || v.phase !== "guess") return;
  try {
    await send("could not give up", (id) => api.matchGiveUp(id));
  } catch (_) {
    /* shown */
  }
}

/* ------------------------------------------------------------------ drawing */
function handoverDue(v) {
  if (!v || v.over || !twoPeople(v)) return false;
  if (M.handover === `breaker:${v.current}` && v.phase === "guess") return true;
  return v.phase === "secret" && M.ack !== `maker:${v.current}`;
}

function render() {
  const v = M.view;
  const panel = $("#panel-match");
  const state = M.loading ? "loading" : !v ? "start" : v.over ? "over" : handoverDue(v) ? "handover" : "play";
  panel.dataset.state = state;
  panel.dataset.match = v ? v.id : "";
  panel.dataset.phase = v ? v.phase : "";
  panel.dataset.toMove = v && v.to_move ? v.to_move : "";
  panel.dataset.game = v && v.current ? String(v.current) : "";
  panel.dataset.busy = String(M.busy);
  $("#match-start").hidden = state !== "start";
  $("#match-handover").hidden = state !== "handover";
  $("#match-play").hidden = state !== "play" && state !== "over";
  $("#match-new").hidden = !v || M.loading;
  renderEvents();
  renderStatus();
  if (state === "start") {
    renderForm();
    loadValue();
  } else if (state === "handover") {
    renderHandover(v);
  }
  if (v && (state === "play" || state === "over")) renderMatch(v);
  renderControls();
}

function renderStatus() {
  const v = M.view;
  const status = $("#match-status");
  if (!v) {
    status.textContent = "";
    return;
  }
  const played = v.current || v.games;
  const scores = `${nameOf(v, "A")} ${v.scores.A} · ${nameOf(v, "B")} ${v.scores.B}`;
  status.textContent = v.over ? `${count(v.games, "game")} played · ${scores}`
    : `game ${played} of ${v.games} · ${scores}`;
}

function renderEvents() {
  const box = $("#match-events");
  box.hidden = M.events.length === 0;
  box.replaceChildren(...M.events.map((t) => el("p", { class: "match-event", text: sentence(t) })));
}

function renderForm() {
  const people = document.querySelector("input[name=match-players]:checked").value === "people";
  for (const node of document.querySelectorAll("#match-form .for-computer")) node.hidden = people;
  for (const node of document.querySelectorAll("#match-form .for-people")) node.hidden = !people;
  $("#match-start-button").disabled = M.busy;
  const box = $("#match-resume");
  const o = M.other;
  box.hidden = !o;
  if (o) {
    const preset = S.presets.find((p) => p.name === o.rules);
    const title = preset ? (preset.title || o.rules).split(":")[0] : o.rules;
    $("#match-resume-text").textContent = `Your match under ${title} is not over (game ${o.current} of ${o.games}; ${nameOf(o, "A")} ${o.scores.A}, ${nameOf(o, "B")} ${o.scores.B}).`;
  }
}

function renderHandover(v) {
  const g = inPlay(v);
  const breaker = nameOf(v, g.breaker);
  const maker = nameOf(v, g.maker);
  if (M.handover) {
    $("#match-handover-text").textContent = `${sentence(maker)}'s secret is hidden. Hand the device to ${breaker} to break it.`;
    $("#match-handover-ok").textContent = `I am ${breaker}: show the board`;
  } else {
    $("#match-handover-text").textContent = `Game ${g.number} of ${v.games}: hand the device to ${maker}, who makes the code. ${sentence(breaker)}, look away while ${maker} chooses the secret.`;
    $("#match-handover-ok").textContent = `I am ${maker}: choose the secret`;
  }
}

function turnText(v) {
  if (v.over) return "The match is over.";
  const g = inPlay(v);
  const breaker = nameOf(v, g.breaker);
  const maker = nameOf(v, g.maker);
  const head = `Game ${g.number} of ${v.games}: ${says(breaker, "breaks")} ${whose(maker)} code.`;
  if (M.busy) {
    const computer = ["A", "B"].find((side) => !isPerson(v, side));
    return `${head} ${computer ? `${sentence(nameOf(v, computer))} is playing…` : "Sending…"}`;
  }
  const to = (name, what) => (isYou(name) ? sentence(what) : `${sentence(name)}: ${what}`);
  if (v.phase === "secret") return `${head} ${to(maker, `choose a secret for ${breaker} to break.`)}`;
  if (v.phase === "answer") {
    return `${head} ${to(maker, `answer ${whose(breaker)} guess ${g.pending}.`)}`;
  }
  return `${head} ${isYou(breaker) ? "Your guess." : `${sentence(breaker)} to guess.`}`;
}

function boardRows(v, g, live) {
  const rows = g.history.map(([guess, fb], i) => rowEl(guess, fb, i,
    live && M.conflict.includes(i) ? "conflict" : ""));
  if (g.pending) {
    const i = g.history.length;
    const row = el("div", { class: "row pending", "data-index": i, "data-guess": g.pending,
      title: `${g.pending}: waiting for the answer` },
    el("span", { class: "row-num", text: String(i + 1) }),
    el("span", { class: "cells" }, [...g.pending].map((s) => el("span", { class: "cell" }, symbolEl(s)))),
    el("span", { class: "fb-text", text: "waiting for the answer" }));
    rows.push(row);
  }
  if (live && !g.over) {
    for (let i = rows.length; i < v.rows; i++) rows.push(emptyRowEl(i));
  }
  return rows;
}

function renderMatch(v) {
  const g = inPlay(v) || v.played[v.played.length - 1];
  const board = $("#match-board");
  board.replaceChildren(...boardRows(v, g, true));
  board.dataset.game = String(g.number);
  board.dataset.rows = String(g.history.length);
  $("#match-turn").textContent = turnText(v);
  // the game that just ended, while the next one is on the board
  const last = !v.over && M.events.length ? lastOver(v) : null;
  $("#match-last").hidden = !last;
  if (last) {
    $("#match-last-title").replaceChildren(`Game ${last.number}, just played: the secret was `,
      codeWithText(last.secret));
    $("#match-last-board").replaceChildren(...boardRows(v, last, false));
  }
  const final = $("#match-final");
  final.hidden = !v.over;
  if (v.over) {
    final.dataset.a = String(v.scores.A);
    final.dataset.b = String(v.scores.B);
    final.dataset.winner = v.winner || "";
    // against the computer the box says whether you won; between two people it is neutral
    const you = twoPeople(v) ? null : ["A", "B"].find((side) => isPerson(v, side));
    final.dataset.result = !v.winner ? "draw" : !you || v.winner === you ? "win" : "loss";
    final.textContent = sentence(v.result);
  }
  // the answer form: marks on the pending guess's pegs
  if (v.phase === "answer" && g.pending && M.marks.length !== N().pegs) {
    M.marks = Array(N().pegs).fill(0);
  }
  const pending = $("#match-pending");
  pending.replaceChildren(...(g.pending ? [codeWithText(g.pending)] : []));
  pending.dataset.code = g.pending || "";
  renderMarks(g.pending || "");
  renderScores(v);
}

function renderMarks(guess) {
  const n = N();
  if (!n.positional) return;
  $("#match-marks").replaceChildren(...M.marks.map((m, i) => el("button", {
    type: "button", id: `match-mark-${i}`, class: `cell mark-${n.markClass(m)}`,
    "data-mark": n.markChar(m), "data-pos": i, "aria-label": `Peg ${i + 1}: ${n.markWord(m)}`,
    title: `Peg ${i + 1}: ${n.markWord(m)} (click to change)`,
    onclick: () => {
      M.marks[i] = (M.marks[i] + 1) % 3;
      renderMarks(guess);
    } }, guess[i] ? symbolEl(guess[i]) : el("span", { class: "hole" }))), marksLegend());
}

function renderScores(v) {
  const a = nameOf(v, "A");
  const b = nameOf(v, "B");
  const table = $("#match-scores");
  table.querySelector("thead").replaceChildren(el("tr", {},
    el("th", { scope: "col", text: "Game" }), el("th", { scope: "col", text: "Code broken by" }),
    el("th", { scope: "col", class: "num", text: "Guesses" }),
    el("th", { scope: "col", class: "num", text: a }), el("th", { scope: "col", class: "num", text: b })));
  table.querySelector("tbody").replaceChildren(...v.played.map((g) => el("tr", {
    "data-game": g.number, "data-over": String(g.over), "data-a": g.points.A, "data-b": g.points.B,
    class: g.number === v.current ? "current" : null },
  el("td", { text: String(g.number) }),
  el("td", { text: nameOf(v, g.breaker) }),
  el("td", { class: "num", text: String(g.history.length) }),
  el("td", { class: "num", text: g.over ? fmt(g.points.A) : "–" }),
  el("td", { class: "num", text: g.over ? fmt(g.points.B) : "–" }),
  )));
  table.querySelector("tfoot").replaceChildren(el("tr", { "data-a": v.scores.A, "data-b": v.scores.B },
    el("th", { scope: "row", colspan: 3, text: "Total" }),
    el("td", { class: "num", text: fmt(v.scores.A) }),
    el("td", { class: "num", text: fmt(v.scores.B) })));
  const outcomes = v.played.filter((g) => g.over && g.outcome);
  $("#match-outcomes").replaceChildren(...outcomes.map((g) => el("li", { "data-game": g.number, value: g.number,
    text: sentence(g.outcome) })));
}

function renderControls() {
  const v = M.view;
  const playing = Boolean(v) && !v.over && !handoverDue(v);
  const g = v && inPlay(v);
  const guessing = playing && v.phase === "guess" && isPerson(v, g.breaker);
  const secret = playing && v.phase === "secret" && isPerson(v, g.maker);
  const answering = playing && v.phase === "answer" && isPerson(v, g.maker);
  $("#match-guess").hidden = !guessing;
  $("#match-secret").hidden = !secret;
  $("#match-answer").hidden = !answering;
  $("#match-give-up").hidden = !guessing;
  $("#match-give-up").disabled = M.busy;
  $("#match-guess-input").disabled = M.busy;
  $("#match-submit-guess").disabled = M.busy || !N() || guessEntry.code.length !== N().pegs;
  $("#match-backspace").disabled = M.busy || guessEntry.code.length === 0;
  $("#match-submit-secret").disabled = M.busy || !N() || secretEntry.code.length !== N().pegs;
  $("#match-secret-random").disabled = M.busy;
  $("#match-submit-answer").disabled = M.busy;
  if (!answering) {
    $("#match-answer-note").hidden = true;
    M.marks = [];
  }
  if (guessing) guessEntry.render();
  if (secret) secretEntry.render();
}

/* ------------------------------------------------------------------ the game value */
const asNumber = (frac) => {
  const [p, q] = String(frac).split("/").map(Number);
  return p / (q || 1);
};
const percent = (frac) => `${(100 * asNumber(frac)).toFixed(1)}%`;

async function loadValue() {
  const rules = S.rules && S.rules.name;
  if (!rules) return;
  const box = $("#match-value");
  $("#match-value-title").textContent = `The game value of ${S.rules.title ? S.rules.title.split(":")[0] : rules}`;
  if (box.dataset.rules === rules && box.dataset.state !== "idle" && box.dataset.state !== "error") return;
  box.dataset.rules = rules;
  if (values.has(rules)) {
    renderValue(values.get(rules));
    return;
  }
  const s = ++valueSeq;
  box.dataset.state = "loading";
  $("#match-value-loading").hidden = false;
  $("#match-value-tables").hidden = true;
  $("#match-value-summary").textContent = "";
  try {
    const data = await api.value(rules);
    values.set(rules, { data });
    if (s === valueSeq) renderValue({ data });
  } catch (err) {
    if (s !== valueSeq) return;
    if (err.status === 413) {
      values.set(rules, { error: err.detail });
      renderValue({ error: err.detail });
    } else {
      box.dataset.state = "error";
      $("#match-value-loading").hidden = true;
      $("#match-value-summary").textContent = sentence(`the game value could not be loaded: ${err.detail}`);
    }
  }
}

function renderValue({ data, error }) {
  const box = $("#match-value");
  $("#match-value-loading").hidden = true;
  const summary = $("#match-value-summary");
  if (error) {
    box.dataset.state = "out-of-reach";
    box.dataset.value = "";
    $("#match-value-tables").hidden = true;
    summary.textContent = sentence(error);
    return;
  }
  box.dataset.state = "ready";
  box.dataset.value = data.value;
  const how = data.certified ? "certified exactly" : "not certified";
  const where = data.stored ? "shipped with keypeg" : `computed in ${data.seconds} s`;
  summary.replaceChildren(el("strong", { text: `${data.value} = ${data.mean.toFixed(4)}` }),
    ` guesses per game on average (${how}; ${where}).`);
  $("#match-value-maker tbody").replaceChildren(...data.codemaker.map((c) => el("tr", {
    "data-class": c.class, "data-probability": c.probability },
  el("td", { class: "code-inline", text: c.class }),
  el("td", { class: "num", text: fmt(c.codes) }),
  el("td", { class: "num", title: c.probability, text: `${c.probability} (${percent(c.probability)})` }),
  el("td", { class: "num", title: c.codebreaker_cost, text: asNumber(c.codebreaker_cost).toFixed(4) }))));
  $("#match-value-breaker tbody").replaceChildren(...data.codebreaker.map((t) => el("tr", {
    "data-first-guess": t.first_guess, "data-probability": t.probability },
  el("td", { class: "num", text: `${t.probability} (${percent(t.probability)})` }),
  el("td", {}, codeWithText(t.first_guess)))));
  $("#match-value-tables").hidden = false;
}
