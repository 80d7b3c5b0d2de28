/* keypeg web page: Play, hints, Watch, Lab and Assist on top of the JSON API.
 *
 * Plain JavaScript, no build step. Every request goes through api(), which turns an
 * error answer into an ApiError carrying the server's one-sentence "detail"; callers show
 * it in the message area (or next to the clues in Assist). Requests whose answer may
 * arrive after a newer one (hints, cut, lab) carry a sequence number and stale answers
 * are dropped.
 */
"use strict";

/* ------------------------------------------------------------------ constants */
const COLOR_LETTERS = "RGBYOPWKC";
const COLOR_NAMES = ["red", "green", "blue", "yellow", "orange", "purple", "white", "black",
  "cyan"];
const STRATEGY_INFO = {
  consistent: "plays the first code that is still possible",
  random: "plays a random code that is still possible",
  maxsize: "Knuth: makes the largest part as small as possible",
  expsize: "Irving: makes the expected part size as small as possible",
  entropy: "Neuwirth: gains the most information (entropy)",
  parts: "Kooi: splits the codes into the most parts",
  optimal: "fewest guesses on average (exact search)",
};
const WATCH_DELAY_MS = 220;
const WATCH_MAX_STEPS = 60;
const LAB_TIMEOUT_MS = 120_000;
const WATCH_TIMEOUT_MS = 120_000;

/* ------------------------------------------------------------------ state */
const S = {
  presets: [],
  rules: null, // the selected preset object from /api/rules
  mode: "play",
  play: { id: null, history: [], over: false, solved: false, secret: null, compose: "",
    busy: false },
  watch: { history: [], secret: null, running: false, solved: false, approximate: false },
  lab: { cache: new Map(), seq: 0 },
  assist: { clues: [], editing: null, marks: [], conflict: [], suspects: [], error: null },
  hintsSeq: 0,
  cutSeq: 0,
  gameSeq: 0,
};

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
};
const fmt = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : String(n));
const sentence = (t) => (t ? t.charAt(0).toUpperCase() + t.slice(1) : t);
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/* ------------------------------------------------------------------ API */
class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

async function api(method, path, body, { timeoutMs = 0 } = {}) {
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
    throw new ApiError(0, `could not reach the keypeg server (${e.message}).`);
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
    throw new ApiError(res.status, detail);
  }
  if (data === null) throw new ApiError(res.status, "the server sent an answer that is not JSON.");
  return data;
}

/* ------------------------------------------------------------------ messages */
function showMessage(text, kind = "error") {
  const box = $("#message");
  $("#message-text").textContent = sentence(text);
  box.dataset.kind = kind;
  box.hidden = false;
}
function clearMessage() {
  const box = $("#message");
  box.hidden = true;
  box.dataset.kind = "";
  $("#message-text").textContent = "";
}
function reportError(err, prefix = "") {
  const text = err instanceof ApiError ? err.detail : `unexpected error: ${err && err.message}`;
  if (!(err instanceof ApiError)) console.error(err);
  showMessage(prefix ? `${prefix}: ${text}` : text, "error");
}

/* ------------------------------------------------------------------ codes and symbols */
const isDigits = () => S.rules.digits;
const symbols = () => S.rules.symbols;

/** Map one typed character to a symbol of the current rules, or null. */
function toSymbol(ch) {
  const r = S.rules;
  const up = ch.toUpperCase();
  if (r.blanks && (ch === "_" || ch === "." || (ch === "0" && !r.digits))) return "_";
  if (!r.digits && r.colors <= COLOR_LETTERS.length) {
    const i = COLOR_LETTERS.indexOf(up);
    if (i >= 0) return i < r.colors ? String(i + 1) : null;
  }
  return r.symbols.includes(up) ? up : null;
}

/** Keep only the characters that write symbols, at most one code long. */
function normalizeCode(text) {
  let out = "";
  for (const ch of text) {
    const s = toSymbol(ch);
    if (s !== null && out.length < S.rules.pegs) out += s;
  }
  return out;
}

function symbolName(sym) {
  if (sym === "_") return "blank";
  if (isDigits()) return `digit ${sym}`;
  const i = symbols().indexOf(sym);
  return i >= 0 && i < COLOR_NAMES.length ? `${COLOR_NAMES[i]} (${sym})` : `colour ${sym}`;
}

/** One symbol as shown on the board: a coloured peg with its digit, or a digit tile. */
function symbolEl(sym, extra = "") {
  if (isDigits()) {
    return el("span", { class: `digit ${extra}`, "data-symbol": sym, text: sym });
  }
  const i = symbols().indexOf(sym);
  const node = el("span", {
    class: `peg ${sym === "_" ? "blank" : `c${i + 1}`} ${extra}`,
    "data-symbol": sym,
    title: symbolName(sym),
    text: sym === "_" ? "" : sym,
  });
  if (i >= 9 && sym !== "_") node.style.background = `hsl(${(i * 47) % 360} 55% 45%)`;
  return node;
}

function codeEl(code, extra = "") {
  return el("span", { class: `code ${extra}`, "data-code": code, title: code },
    [...code].map((s) => symbolEl(s)));
}

/* ------------------------------------------------------------------ feedback */
/** Parse feedback text: [black, white] or one mark per peg (2 green, 1 amber, 0 gray). */
function parseFeedback(text) {
  if (S.rules.feedback === "positional") {
    return [...text].map((c) => (c === "G" ? 2 : c === "A" || c === "Y" ? 1 : 0));
  }
  const m = /^(\d+)\s*B\s*(?:(\d+)\s*W)?$/i.exec(text) || /^()(\d+)\s*W$/i.exec(text);
  return m ? [Number(m[1] || 0), Number(m[2] || 0)] : [0, 0];
}

const MARK_CLASS = ["gray", "amber", "green"];
const MARK_CHAR = ["-", "A", "G"];
const MARK_WORD = ["gray (not in the code)", "amber (elsewhere)", "green (right place)"];

function keyPegsEl(black, white, pegs, small = false) {
  const box = el("span", { class: `keys keys-${pegs}${small ? " small" : ""}`,
    "aria-label": `${black} black, ${white} white`, title: `${black} black, ${white} white` });
  for (let i = 0; i < pegs; i++) {
    const kind = i < black ? "black" : i < black + white ? "white" : "empty";
    box.append(el("span", { class: `key ${kind}` }));
  }
  return box;
}

/** A board row: the guess, and its feedback as key pegs or coloured cells. */
function rowEl(guess, feedback, index, extraClass = "") {
  const row = el("div", { class: `row ${extraClass}`, "data-index": index, "data-guess": guess,
    "data-feedback": feedback });
  row.append(el("span", { class: "row-num", text: String(index + 1) }));
  const cells = el("span", { class: "cells" });
  if (S.rules.feedback === "positional") {
    const marks = parseFeedback(feedback);
    [...guess].forEach((s, i) => {
      const mark = marks[i] ?? 0;
      cells.append(el("span", { class: `cell mark-${MARK_CLASS[mark]}`, "data-mark": MARK_CHAR[mark],
        title: `${symbolName(s)}: ${MARK_WORD[mark]}` }, symbolEl(s)));
    });
    row.append(cells);
  } else {
    [...guess].forEach((s) => cells.append(el("span", { class: "cell" }, symbolEl(s))));
    row.append(cells);
    const [b, w] = parseFeedback(feedback);
    row.append(keyPegsEl(b, w, S.rules.pegs));
  }
  row.append(el("span", { class: "fb-text", text: feedback }));
  return row;
}

function emptyRowEl(index) {
  const row = el("div", { class: "row empty", "data-index": index, "aria-hidden": "true" });
  row.append(el("span", { class: "row-num", text: String(index + 1) }));
  const cells = el("span", { class: "cells" });
  for (let i = 0; i < S.rules.pegs; i++) {
    cells.append(el("span", { class: "cell" }, el("span", { class: "hole" })));
  }
  row.append(cells);
  if (S.rules.feedback !== "positional") row.append(keyPegsEl(0, 0, S.rules.pegs));
  return row;
}

/** Feedback label for the cut bars: small key pegs or small mark cells, plus the text. */
function feedbackLabelEl(feedback) {
  const box = el("span", { class: "fb-label" });
  if (S.rules.feedback === "positional") {
    const cells = el("span", { class: "mini-marks" });
    parseFeedback(feedback).forEach((m) => cells.append(el("span", { class: `mini-mark mark-${MARK_CLASS[m]}` })));
    box.append(cells);
  } else {
    const [b, w] = parseFeedback(feedback);
    box.append(keyPegsEl(b, w, S.rules.pegs, true));
  }
  box.append(el("span", { class: "fb-label-text", text: feedback }));
  return box;
}

/* ------------------------------------------------------------------ rules */
async function loadRules() {
  const select = $("#rules-select");
  S.presets = await api("GET", "/api/rules");
  select.replaceChildren(...S.presets.map((p) =>
    el("option", { value: p.name, text: `${p.name} — ${p.title}` })));
  const wanted = new URLSearchParams(location.search).get("rules");
  const initial = S.presets.find((p) => p.name === wanted || (p.aliases || []).includes(wanted))
    || S.presets.find((p) => p.name === "classic") || S.presets[0];
  select.value = initial.name;
  select.disabled = false;
  applyRules(initial);
}

function applyRules(preset) {
  S.rules = preset;
  document.body.dataset.rules = preset.name;
  document.body.dataset.feedback = preset.feedback;
  document.body.dataset.digits = String(preset.digits);
  const limit = preset.max_guesses ? `${preset.max_guesses} rows` : "no row limit";
  $("#rules-desc").textContent = `${preset.description || ""} · ${fmt(preset.codes)} codes · ${limit}`;
  $("#rules-desc").title = preset.title;
  const url = new URL(location.href);
  url.searchParams.set("rules", preset.name);
  history.replaceState(null, "", url);
  buildPalette();
  buildAssistForm();
  const kind = preset.digits ? "digits" : "colours";
  let help = `Type ${kind} ${preset.symbols[0]}–${preset.symbols[preset.symbols.length - 1]}`;
  if (!preset.digits && preset.colors <= COLOR_LETTERS.length) {
    help += ` or letters ${COLOR_LETTERS.slice(0, preset.colors).split("").join(" ")}`;
  }
  help += ", or click the palette. Backspace removes, Enter guesses.";
  if (!preset.repeats) help += " Each symbol at most once.";
  $("#input-help").textContent = help;
  $("#watch-secret").placeholder = `e.g. ${preset.symbols.slice(0, preset.pegs)}`;
  $("#assist-guess").placeholder = `e.g. ${preset.symbols.slice(0, preset.pegs)}`;
}

async function changeRules(name) {
  const preset = S.presets.find((p) => p.name === name);
  if (!preset) return;
  clearMessage();
  const hadClues = S.assist.clues.length > 0;
  applyRules(preset);
  watchReset();
  assistReset();
  if (hadClues) showMessage(`assist clues cleared: they were written for other rules.`, "info");
  resetCut();
  await newGame();
  if (S.mode === "lab") loadLab();
  if (S.mode === "assist") refreshHints();
}

/* ------------------------------------------------------------------ modes */
function setMode(mode) {
  if (!["play", "watch", "lab", "assist"].includes(mode)) mode = "play";
  S.mode = mode;
  document.body.dataset.mode = mode;
  for (const tab of document.querySelectorAll(".tab")) {
    tab.setAttribute("aria-selected", String(tab.dataset.mode === mode));
  }
  for (const m of ["play", "watch", "lab", "assist"]) $(`#panel-${m}`).hidden = m !== mode;
  $("#hints").hidden = !(mode === "play" || mode === "assist");
  history.replaceState(null, "", `${location.pathname}${location.search}#${mode}`);
  if (!S.rules) return;
  if (mode === "play" || mode === "assist") {
    refreshHints();
    refreshCut();
    if (mode === "play") focusGuess();
  }
  if (mode === "lab") loadLab();
}

/* ------------------------------------------------------------------ play */
function focusGuess() {
  if (S.mode === "play") $("#guess-input").focus({ preventScroll: true });
}

async function newGame() {
  const seq = ++S.gameSeq;
  S.play = { id: null, history: [], over: false, solved: false, secret: null, compose: "",
    busy: true };
  renderPlay();
  try {
    const game = await api("POST", "/api/games", { rules: S.rules.name });
    if (seq !== S.gameSeq) return;
    S.play.id = game.id;
    S.play.busy = false;
    renderPlay();
    document.body.dataset.game = game.id;
    if (S.mode === "play") {
      refreshHints();
      focusGuess();
    }
  } catch (err) {
    if (seq !== S.gameSeq) return;
    S.play.busy = false;
    renderPlay();
    reportError(err, "could not start a game");
  }
}

function setCompose(text) {
  S.play.compose = normalizeCode(text);
  const input = $("#guess-input");
  if (input.value !== S.play.compose) input.value = S.play.compose;
  renderComposer();
  if (S.mode === "play") refreshCut();
}

async function submitGuess() {
  const p = S.play;
  const guess = p.compose;
  if (p.busy || !p.id) return;
  if (p.over) {
    showMessage("this game is over; press New game to play again.", "info");
    return;
  }
  if (guess.length !== S.rules.pegs) {
    showMessage(`a guess needs ${S.rules.pegs} ${S.rules.digits ? "digits" : "pegs"}; this one has ${guess.length}.`, "error");
    return;
  }
  clearMessage();
  p.busy = true;
  renderComposer();
  const id = p.id;
  try {
    const res = await api("POST", `/api/games/${encodeURIComponent(id)}/guesses`, { guess });
    if (S.play.id !== id) return;
    p.history.push([res.guess, res.feedback]);
    p.over = res.over;
    p.solved = res.solved;
    if (res.secret) p.secret = res.secret;
    p.compose = "";
    $("#guess-input").value = "";
    p.busy = false;
    renderPlay();
    resetCut();
    refreshHints();
    focusGuess();
  } catch (err) {
    if (S.play.id !== id) return;
    p.busy = false;
    renderComposer();
    if (err.status === 409) {
      p.over = true;
      renderPlay();
    }
    reportError(err, `guess ${guess} not played`);
  }
}

function renderPlay() {
  const p = S.play;
  const board = $("#board");
  const rows = p.history.map(([g, f], i) => rowEl(g, f, i));
  const max = S.rules.max_guesses;
  if (max) {
    for (let i = p.history.length; i < max; i++) rows.push(emptyRowEl(i));
  } else if (!p.over) {
    rows.push(emptyRowEl(p.history.length));
  }
  board.replaceChildren(...rows);
  board.dataset.rows = String(p.history.length);
  const left = $("#attempts-left");
  if (max) {
    const n = Math.max(0, max - p.history.length);
    left.textContent = `${n} of ${max} attempts left`;
    left.dataset.left = String(n);
  } else {
    left.textContent = `${p.history.length} guess${p.history.length === 1 ? "" : "es"} · no limit`;
    left.dataset.left = "";
  }
  const result = $("#play-result");
  if (p.over) {
    result.hidden = false;
    result.dataset.result = p.solved ? "win" : "loss";
    const n = p.history.length;
    $("#play-result-text").textContent = p.solved
      ? `Solved in ${n} guess${n === 1 ? "" : "es"}!`
      : `Out of attempts — the code was not found in ${n} guesses.`;
    const secret = $("#secret");
    secret.dataset.code = p.secret || "";
    secret.replaceChildren(p.secret ? codeEl(p.secret) : "?");
  } else {
    result.hidden = true;
    result.dataset.result = "";
  }
  $("#panel-play").dataset.state = p.over ? (p.solved ? "won" : "lost") : "playing";
  renderComposer();
}

function renderComposer() {
  const p = S.play;
  const slots = $("#guess-slots");
  const items = [];
  for (let i = 0; i < S.rules.pegs; i++) {
    const s = p.compose[i];
    items.push(el("span", { class: "cell" }, s ? symbolEl(s) : el("span", { class: "hole" })));
  }
  slots.replaceChildren(...items);
  const disabled = p.over || !p.id;
  $("#guess-input").disabled = disabled;
  $("#guess-input").maxLength = S.rules.pegs;
  $("#submit-guess").disabled = disabled || p.busy || p.compose.length !== S.rules.pegs;
  $("#backspace").disabled = disabled || p.compose.length === 0;
  for (const b of document.querySelectorAll("#palette button")) {
    b.disabled = disabled || p.compose.length >= S.rules.pegs;
  }
  $("#composer").classList.toggle("done", p.over);
}

function buildPalette() {
  const pal = $("#palette");
  pal.replaceChildren(...[...S.rules.symbols].map((s, i) => {
    let key = s;
    if (!S.rules.digits && S.rules.colors <= COLOR_LETTERS.length && i < S.rules.colors) {
      key = `${s} or ${COLOR_LETTERS[i]}`;
    }
    return el("button", { type: "button", class: "palette-btn", id: `palette-${s}`,
      "data-symbol": s, "aria-label": `Add ${symbolName(s)}`, title: `${symbolName(s)} — key ${key}`,
      onclick: () => {
        if (S.play.compose.length < S.rules.pegs) setCompose(S.play.compose + s);
        focusGuess();
      } }, symbolEl(s));
  }));
}

/* ------------------------------------------------------------------ hints */
function currentHistory() {
  if (S.mode === "assist") return S.assist.clues.map((c) => [c.guess, c.feedback]);
  return S.play.history.map(([g, f]) => [g, f]);
}
const historyKey = (h) => h.map(([g, f]) => `${g}=${f}`).join(",");

async function refreshHints() {
  const mode = S.mode;
  if (mode !== "play" && mode !== "assist") return;
  const panel = $("#hints");
  const history = currentHistory();
  const key = historyKey(history);
  const seq = ++S.hintsSeq;
  panel.dataset.state = "loading";
  panel.dataset.history = key;
  panel.dataset.mode = mode;
  panel.dataset.rules = S.rules.name;
  $("#hint-loading").hidden = false;
  try {
    let hints;
    if (mode === "play") {
      if (!S.play.id) return;
      hints = await api("GET", `/api/games/${encodeURIComponent(S.play.id)}/hints`);
    } else {
      hints = await api("POST", "/api/hints", { rules: S.rules.name, history });
    }
    if (seq !== S.hintsSeq) return;
    renderHints(hints);
    if (mode === "assist") setAssistError(null);
    panel.dataset.state = "ready";
  } catch (err) {
    if (seq !== S.hintsSeq) return;
    const contradiction = mode === "assist" && err.status === 422;
    renderHintsError(contradiction
      ? "the clues on the left cannot all hold; edit or remove one of them."
      : err.detail || String(err));
    panel.dataset.state = "error";
    if (mode === "assist" && err.status === 422) setAssistError(err.detail);
    else reportError(err, "no hints");
  } finally {
    if (seq === S.hintsSeq) $("#hint-loading").hidden = true;
  }
}

function useGuess(code) {
  if (S.mode === "assist") {
    $("#assist-guess").value = code;
    assistGuessChanged();
    $("#assist-guess").focus();
  } else if (!S.play.over) {
    setCompose(code);
    focusGuess();
  }
}

function renderHints(h) {
  $("#hint-error").hidden = true;
  $("#hint-count").textContent = fmt(h.candidates);
  $("#hint-count").dataset.count = String(h.candidates);
  $("#hint-bits").textContent = h.bits.toFixed(2);
  $("#hint-bits").dataset.bits = String(h.bits);
  $("#hint-approx").hidden = !h.approximate;
  const note = $("#hint-note");
  note.hidden = !h.note;
  note.textContent = h.note || "";

  const list = $("#hint-list");
  if (Array.isArray(h.list) && h.list.length) {
    list.hidden = false;
    list.replaceChildren(
      el("div", { class: "hint-list-title", text: h.solved ? "The code:" : `Still possible (${h.list.length}):` }),
      el("div", { class: "chips" }, h.list.map((c) => el("button", {
        type: "button", class: "chip", "data-code": c, title: `Use ${c}`,
        onclick: () => useGuess(c) }, codeEl(c, "mini")))),
    );
  } else {
    list.hidden = true;
    list.replaceChildren();
  }

  const opt = $("#hint-optimal");
  if (h.solved) {
    opt.dataset.guess = "";
    opt.replaceChildren(el("span", { class: "solved-note", text: "Solved — nothing left to find." }));
  } else if (h.optimal) {
    opt.dataset.guess = h.optimal.guess;
    opt.replaceChildren(
      el("span", { class: "opt-label", text: "Optimal next guess" }),
      codeEl(h.optimal.guess),
      el("span", { class: "opt-text", text: h.optimal.guess }),
      el("span", { class: "opt-part", text: `largest part ${fmt(h.optimal.largest_part)}` }),
      el("button", { type: "button", class: "button small", id: "use-optimal",
        onclick: () => useGuess(h.optimal.guess), text: "Use" }),
    );
  } else {
    opt.dataset.guess = "";
    opt.replaceChildren(
      el("span", { class: "opt-label", text: "Optimal" }),
      el("span", { class: "opt-note", id: "hint-optimal-note", "data-testid": "hint-optimal-note",
        text: sentence(h.optimal_note || "not available here.") }),
    );
  }

  const body = $("#hint-strategies tbody");
  body.replaceChildren(...(h.strategies || []).map((s) => el("tr", {
    "data-strategy": s.name, "data-guess": s.guess, "data-largest": s.largest_part,
    "data-possible": String(s.possible) },
  el("td", { class: "strat-name", title: STRATEGY_INFO[s.name] || "", text: s.name }),
  el("td", { class: "strat-guess" }, el("span", { class: "code-with-text" }, codeEl(s.guess, "mini"),
    el("span", { class: "code-text", text: s.guess }),
    s.possible ? null : el("span", { class: "tag", title: "cannot be the secret, but splits the set well", text: "probe" }))),
  el("td", { class: "num", text: fmt(s.largest_part) }),
  el("td", {}, el("button", { type: "button", class: "button small ghost", "data-use": s.guess,
    onclick: () => useGuess(s.guess), text: "Use" })),
  )));
  $("#hint-strategies").hidden = !(h.strategies || []).length;
}

function renderHintsError(detail) {
  $("#hint-count").textContent = "–";
  $("#hint-count").dataset.count = "";
  $("#hint-bits").textContent = "–";
  $("#hint-approx").hidden = true;
  $("#hint-note").hidden = true;
  $("#hint-list").hidden = true;
  $("#hint-optimal").replaceChildren();
  $("#hint-optimal").dataset.guess = "";
  $("#hint-strategies tbody").replaceChildren();
  $("#hint-strategies").hidden = true;
  const box = $("#hint-error");
  box.textContent = `No hints: ${detail}`;
  box.hidden = false;
  resetCut();
}

/* ------------------------------------------------------------------ cut */
function composedGuess() {
  if (S.mode === "assist") return normalizeCode($("#assist-guess").value);
  return S.play.over ? "" : S.play.compose;
}

function resetCut() {
  S.cutSeq++;
  const bars = $("#cut-bars");
  bars.replaceChildren();
  bars.dataset.guess = "";
  bars.dataset.state = "empty";
  $("#cut-guess").textContent = "your guess";
  $("#cut-summary").textContent =
    "Complete a guess to see the answers it can get and how many codes each leaves.";
}

async function refreshCut() {
  if (S.mode !== "play" && S.mode !== "assist") return;
  const guess = composedGuess();
  if (!S.rules || guess.length !== S.rules.pegs || $("#hints").dataset.state === "error") {
    resetCut();
    return;
  }
  const seq = ++S.cutSeq;
  const bars = $("#cut-bars");
  bars.dataset.state = "loading";
  try {
    const res = await api("POST", "/api/cut", { rules: S.rules.name, history: currentHistory(), guess });
    if (seq !== S.cutSeq) return;
    renderCut(res);
  } catch (err) {
    if (seq !== S.cutSeq) return;
    bars.replaceChildren();
    bars.dataset.state = "error";
    bars.dataset.guess = "";
    $("#cut-summary").textContent = sentence(err.detail || String(err));
  }
}

function renderCut(res) {
  const bars = $("#cut-bars");
  $("#cut-guess").replaceChildren(codeEl(res.guess, "mini"), ` ${res.guess}`);
  const win = S.rules.feedback === "positional" ? "G".repeat(S.rules.pegs) : `${S.rules.pegs}B0W`;
  $("#cut-summary").textContent = `${res.count} possible answer${res.count === 1 ? "" : "s"}; `
    + `the largest part keeps ${fmt(res.largest)} of ${fmt(res.candidates)} codes.`;
  bars.replaceChildren(...res.parts.map((p) => el("div", {
    class: `cut-row${p.feedback === win ? " win" : ""}${p.size === res.largest ? " largest" : ""}`,
    "data-feedback": p.feedback, "data-size": p.size,
    title: `${p.feedback}: ${fmt(p.size)} code${p.size === 1 ? "" : "s"} left` },
  feedbackLabelEl(p.feedback),
  el("span", { class: "bar-track" }, el("span", { class: "bar",
    style: `width:${Math.max(1.5, (100 * p.size) / res.largest).toFixed(2)}%` })),
  el("span", { class: "num", text: fmt(p.size) }))));
  bars.dataset.guess = res.guess;
  bars.dataset.state = "ready";
}

/* ------------------------------------------------------------------ watch */
function watchLocked() {
  return S.watch.history.length > 0 || S.watch.running;
}

function renderWatch() {
  const w = S.watch;
  const max = S.rules.max_guesses;
  $("#watch-board").replaceChildren(...w.history.map(([g, f], i) =>
    rowEl(g, f, i, max && i >= max ? "beyond" : "")));
  $("#watch-board").dataset.rows = String(w.history.length);
  const locked = watchLocked();
  $("#watch-secret").disabled = locked;
  $("#watch-strategy").disabled = locked;
  $("#watch-random").disabled = locked;
  $("#watch-step").disabled = w.solved || w.running || w.busy;
  $("#watch-play").disabled = w.solved;
  $("#watch-play").textContent = w.running ? "Stop" : "Play to the end";
  const view = $("#watch-secret-view");
  if (locked && w.secret) {
    view.hidden = false;
    view.replaceChildren(el("span", { class: "label-text", text: "Secret" }), codeEl(w.secret),
      el("span", { class: "code-text", text: w.secret }));
  } else {
    view.hidden = true;
  }
  const status = $("#watch-status");
  const n = w.history.length;
  status.dataset.guesses = String(n);
  if (w.solved) {
    status.dataset.state = "solved";
    let text = `${$("#watch-strategy").value} solved it in ${n} guess${n === 1 ? "" : "es"}`;
    if (max && n > max) text += ` (more than the board's ${max} rows)`;
    status.textContent = text + (w.approximate ? " · approximate play" : "");
  } else if (w.busy) {
    status.dataset.state = "running";
    status.textContent = `${$("#watch-strategy").value} is choosing guess ${n + 1}…`;
  } else if (n) {
    status.dataset.state = w.running ? "running" : "paused";
    status.textContent = `${n} guess${n === 1 ? "" : "es"} · ${fmt(w.candidates)} code${w.candidates === 1 ? "" : "s"} still possible`
      + (w.approximate ? " · approximate" : "");
  } else {
    status.dataset.state = w.running ? "running" : "idle";
    status.textContent = "Choose a strategy and a secret, then Step or Play.";
  }
}

function watchReset() {
  S.watch = { history: [], secret: null, running: false, solved: false, approximate: false,
    candidates: null, busy: false };
  if (S.rules) renderWatch();
}

/** Play one step; returns true when another step may follow. */
async function watchStep() {
  const w = S.watch;
  if (w.solved || w.busy) return false;
  if (!w.history.length) {
    const raw = $("#watch-secret").value.trim();
    const secret = normalizeCode(raw);
    if (secret.length !== S.rules.pegs || raw.replace(/[\s,]/g, "").length !== secret.length) {
      showMessage(raw
        ? `the secret ${raw} is not a code of ${S.rules.name} (${S.rules.pegs} of ${S.rules.symbols}); type one or press Random.`
        : "type a secret or press Random first.", "error");
      return false;
    }
    w.secret = secret;
    $("#watch-secret").value = secret;
  }
  const strategy = $("#watch-strategy").value;
  const rules = S.rules.name;
  w.busy = true;
  renderWatch();
  try {
    const res = await api("POST", "/api/watch/step", { rules, strategy, secret: w.secret,
      history: w.history }, { timeoutMs: WATCH_TIMEOUT_MS });
    if (S.watch !== w || S.rules.name !== rules) return false;
    w.history.push([res.guess, res.feedback]);
    w.solved = res.solved;
    w.candidates = res.candidates;
    w.approximate = w.approximate || res.approximate;
    renderWatch();
    if (!w.solved && w.history.length >= WATCH_MAX_STEPS) {
      showMessage(`stopped after ${WATCH_MAX_STEPS} guesses.`, "error");
      return false;
    }
    return !w.solved;
  } catch (err) {
    if (S.watch !== w) return false;
    reportError(err, "watch step failed");
    return false;
  } finally {
    w.busy = false;
    if (S.watch === w) renderWatch();
  }
}

async function watchPlay() {
  const w = S.watch;
  if (w.running) {
    w.running = false;
    renderWatch();
    return;
  }
  clearMessage();
  w.running = true;
  renderWatch();
  while (S.watch === w && w.running) {
    const more = await watchStep();
    if (!more || !w.running) break;
    await delay(WATCH_DELAY_MS);
  }
  w.running = false;
  if (S.watch === w) renderWatch();
}

async function watchRandom() {
  try {
    const res = await api("GET", `/api/watch/secret?rules=${encodeURIComponent(S.rules.name)}`);
    $("#watch-secret").value = res.secret;
    clearMessage();
  } catch (err) {
    reportError(err, "no random secret");
  }
}

/* ------------------------------------------------------------------ lab */
async function loadLab(force = false) {
  const rules = S.rules.name;
  const table = $("#lab-table");
  if (!force && S.lab.cache.has(rules)) {
    renderLab(S.lab.cache.get(rules));
    return;
  }
  const seq = ++S.lab.seq;
  table.dataset.state = "loading";
  table.dataset.rules = rules;
  $("#lab-table tbody").replaceChildren();
  $("#lab-note").hidden = true;
  $("#lab-meta").textContent = "";
  const big = S.rules.codes > 8192;
  const what = big
    ? `Playing every strategy against sampled secrets of this ${fmt(S.rules.codes)}-code space (this can take a while)…`
    : `Evaluating every strategy on all ${fmt(S.rules.codes)} secrets…`;
  const started = Date.now();
  const tick = () => {
    const s = Math.round((Date.now() - started) / 1000);
    $("#lab-loading-text").textContent = s >= 2 ? `${what} ${s} s` : what;
  };
  tick();
  clearInterval(S.lab.timer);
  S.lab.timer = setInterval(tick, 1000);
  $("#lab-loading").hidden = false;
  $("#lab-run").disabled = true;
  try {
    const res = await api("GET", `/api/lab?rules=${encodeURIComponent(rules)}`, undefined,
      { timeoutMs: LAB_TIMEOUT_MS });
    if (seq !== S.lab.seq) return;
    S.lab.cache.set(rules, res);
    if (S.rules.name === rules) renderLab(res);
  } catch (err) {
    if (seq !== S.lab.seq) return;
    table.dataset.state = "error";
    reportError(err, `no lab for ${rules}`);
  } finally {
    if (seq === S.lab.seq) {
      clearInterval(S.lab.timer);
      $("#lab-loading").hidden = true;
      $("#lab-run").disabled = false;
    }
  }
}

function renderLab(res) {
  const table = $("#lab-table");
  const best = Math.min(...res.rows.map((r) => r.mean));
  table.dataset.rules = res.rules;
  table.dataset.exact = String(res.exact);
  $("#lab-table tbody").replaceChildren(...res.rows.map((r) => {
    const top = Math.max(...r.histogram, 1);
    const hist = el("div", { class: "hist", "aria-label": `found on guess 1..${r.histogram.length}: ${r.histogram.join(", ")}` },
      r.histogram.map((n, i) => el("div", { class: "hist-col", "data-guess": i + 1, "data-count": n,
        title: `${fmt(n)} secret${n === 1 ? "" : "s"} found on guess ${i + 1}` },
      el("span", { class: "hist-n", text: n ? fmt(n) : "" }),
      el("span", { class: "hist-bar", style: `height:${n ? Math.max(2, (46 * n) / top) : 0}px` }),
      el("span", { class: "hist-x", text: String(i + 1) }))));
    return el("tr", { "data-strategy": r.strategy, "data-total": r.total, "data-mean": r.mean,
      "data-worst": r.worst, "data-first-guess": r.first_guess || "",
      class: r.mean === best ? "best" : "" },
    el("td", { class: "strat-name", title: STRATEGY_INFO[r.strategy] || "", text: r.strategy }),
    el("td", {}, r.first_guess ? el("span", { class: "code-with-text" }, codeEl(r.first_guess, "mini"), el("span", { class: "code-text", text: r.first_guess })) : "—"),
    el("td", { class: "num", text: fmt(r.total) }),
    el("td", { class: "num", text: r.mean.toFixed(4) }),
    el("td", { class: "num", text: String(r.worst) }),
    el("td", {}, hist));
  }));
  const games = res.rows[0] && res.rows[0].games;
  $("#lab-meta").textContent = res.exact
    ? `exact · all ${fmt(res.secrets)} secrets · ${res.seconds}s`
    : `approximate · ${games ? `${games} sampled secrets each of ${fmt(res.secrets)}` : fmt(res.secrets) + " secrets"} · ${res.seconds}s`;
  const note = $("#lab-note");
  note.hidden = res.exact;
  note.textContent = res.exact ? "" : sentence(res.note || "approximate results.");
  table.dataset.state = "ready";
}

/* ------------------------------------------------------------------ assist */
function buildAssistForm() {
  const r = S.rules;
  const bw = r.feedback !== "positional";
  $("#assist-bw").hidden = !bw;
  $("#assist-pos").hidden = bw;
  const opts = () => Array.from({ length: r.pegs + 1 }, (_, i) => el("option", { value: i, text: String(i) }));
  $("#assist-black").replaceChildren(...opts());
  $("#assist-white").replaceChildren(...opts());
  S.assist.marks = Array(r.pegs).fill(0);
  renderAssistMarks();
}

function renderAssistMarks() {
  const guess = normalizeCode($("#assist-guess").value);
  $("#assist-marks").replaceChildren(...S.assist.marks.map((m, i) => el("button", {
    type: "button", id: `assist-mark-${i}`, class: `cell mark-${MARK_CLASS[m]}`, "data-mark": MARK_CHAR[m],
    "data-pos": i, "aria-label": `Peg ${i + 1}: ${MARK_WORD[m]}`, title: `Peg ${i + 1}: ${MARK_WORD[m]} — click to change`,
    onclick: () => {
      S.assist.marks[i] = (S.assist.marks[i] + 1) % 3;
      renderAssistMarks();
    } }, guess[i] ? symbolEl(guess[i]) : el("span", { class: "hole" }))));
}

function assistFeedback() {
  if (S.rules.feedback === "positional") return S.assist.marks.map((m) => MARK_CHAR[m]).join("");
  return `${$("#assist-black").value}B${$("#assist-white").value}W`;
}

function assistGuessChanged() {
  const input = $("#assist-guess");
  const v = normalizeCode(input.value);
  if (input.value !== v) input.value = v;
  renderAssistMarks();
  refreshCut();
}

function setAssistForm(guess = "", feedback = null) {
  $("#assist-guess").value = guess;
  if (S.rules.feedback === "positional") {
    S.assist.marks = feedback ? parseFeedback(feedback) : Array(S.rules.pegs).fill(0);
  } else {
    const [b, w] = feedback ? parseFeedback(feedback) : [0, 0];
    $("#assist-black").value = String(b);
    $("#assist-white").value = String(w);
  }
  renderAssistMarks();
}

function isContradiction(detail) {
  return /^no code fits these clues/i.test(detail || "");
}

/** Read the clue numbers out of a contradiction message: the conflicting set and the suspects. */
function parseConflict(detail) {
  const [head, ...rest] = detail.split(/;\s*if one clue is wrong/i);
  const nums = (t) => [...t.matchAll(/clue (\d+) \(/g)].map((m) => Number(m[1]) - 1);
  return { conflict: nums(head), suspects: rest.length ? nums(rest.join(" ")) : [] };
}

function setAssistError(detail) {
  const a = S.assist;
  a.error = detail;
  const box = $("#assist-error");
  if (detail) {
    const { conflict, suspects } = isContradiction(detail) ? parseConflict(detail) : { conflict: [], suspects: [] };
    a.conflict = conflict;
    a.suspects = suspects;
    box.replaceChildren(
      el("strong", { class: "assist-error-title", text: "Contradictory clues" }),
      el("span", { id: "assist-error-text", "data-testid": "assist-error-text", text: sentence(detail) }),
      el("div", { class: "assist-error-help",
        text: suspects.length ? "The suspect clues are outlined below: edit or remove the wrong one."
          : "Edit or remove the wrong clues below." }),
    );
    box.hidden = false;
  } else {
    a.conflict = [];
    a.suspects = [];
    box.hidden = true;
    box.replaceChildren();
  }
  renderAssistClues();
}

function renderAssistClues() {
  const a = S.assist;
  $("#assist-clues").replaceChildren(...a.clues.map((c, i) => {
    const cls = ["clue", a.suspects.includes(i) ? "suspect" : "", a.conflict.includes(i) ? "conflict" : "",
      a.editing === i ? "editing" : ""].filter(Boolean).join(" ");
    return el("li", { class: cls, "data-index": i, "data-guess": c.guess, "data-feedback": c.feedback },
      rowEl(c.guess, c.feedback, i),
      a.suspects.includes(i) ? el("span", { class: "tag warn", text: "suspect" }) : null,
      el("button", { type: "button", class: "button small ghost", id: `assist-edit-${i}`,
        onclick: () => assistEdit(i), text: "Edit" }),
      el("button", { type: "button", class: "button small ghost danger", id: `assist-remove-${i}`,
        "aria-label": `Remove clue ${i + 1}`, onclick: () => assistRemove(i), text: "Remove" }));
  }));
  $("#assist-clues").dataset.count = String(a.clues.length);
  $("#assist-add").textContent = a.editing === null ? "Add clue" : `Update clue ${a.editing + 1}`;
  $("#assist-cancel").hidden = a.editing === null;
}

async function assistAdd() {
  const a = S.assist;
  if (a.busy) return;
  const raw = $("#assist-guess").value;
  const guess = normalizeCode(raw);
  if (guess.length !== S.rules.pegs) {
    showMessage(`a clue's guess needs ${S.rules.pegs} ${S.rules.digits ? "digits" : "pegs"}; "${raw}" has ${guess.length}.`, "error");
    return;
  }
  const feedback = assistFeedback();
  const clues = a.clues.slice();
  if (a.editing !== null && a.editing < clues.length) clues[a.editing] = { guess, feedback };
  else clues.push({ guess, feedback });
  const history = clues.map((c) => [c.guess, c.feedback]);
  $("#assist-add").disabled = true;
  a.busy = true;
  try {
    // Check the clue first: a malformed clue is refused; a contradiction is kept so the user
    // can see and fix which clue is wrong.
    let ok = true;
    try {
      await api("POST", "/api/hints", { rules: S.rules.name, history });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 422 || !isContradiction(err.detail)) {
        ok = false;
        reportError(err, `clue ${guess}=${feedback} not added`);
      }
    }
    if (!ok) return;
    clearMessage();
    a.clues = clues;
    a.editing = null;
    setAssistForm();
    renderAssistClues();
    $("#assist-guess").focus();
    resetCut();
    await refreshHints();
  } finally {
    a.busy = false;
    $("#assist-add").disabled = false;
  }
}

function assistEdit(i) {
  const a = S.assist;
  a.editing = i;
  setAssistForm(a.clues[i].guess, a.clues[i].feedback);
  renderAssistClues();
  $("#assist-guess").focus();
  refreshCut();
}

function assistRemove(i) {
  const a = S.assist;
  a.clues.splice(i, 1);
  if (a.editing === i) {
    a.editing = null;
    setAssistForm();
  } else if (a.editing !== null && a.editing > i) {
    a.editing -= 1;
  }
  renderAssistClues();
  refreshHints();
}

function assistReset() {
  S.assist.clues = [];
  S.assist.editing = null;
  setAssistError(null);
  if (S.rules) setAssistForm();
}

/* ------------------------------------------------------------------ events */
function isTextTarget(t) {
  return t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA"
    || t.isContentEditable);
}

function onGlobalKey(e) {
  if (S.mode !== "play" || !S.rules || e.ctrlKey || e.metaKey || e.altKey) return;
  if (isTextTarget(e.target)) return;
  const p = S.play;
  if (e.key === "Enter" && (e.target === document.body || e.target === document.documentElement)) {
    e.preventDefault();
    submitGuess();
  } else if (e.key === "Backspace") {
    e.preventDefault();
    setCompose(p.compose.slice(0, -1));
    focusGuess();
  } else if (e.key.length === 1 && toSymbol(e.key) !== null && !p.over) {
    e.preventDefault();
    setCompose(p.compose + toSymbol(e.key));
    focusGuess();
  }
}

function bind() {
  $("#message-close").addEventListener("click", clearMessage);
  $("#rules-select").addEventListener("change", (e) => changeRules(e.target.value));
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => setMode(tab.dataset.mode));
  }
  document.addEventListener("keydown", onGlobalKey);

  $("#new-game").addEventListener("click", () => {
    clearMessage();
    resetCut();
    newGame();
  });
  const input = $("#guess-input");
  input.addEventListener("input", () => setCompose(input.value));
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      submitGuess();
    }
  });
  $("#submit-guess").addEventListener("click", submitGuess);
  $("#backspace").addEventListener("click", () => {
    setCompose(S.play.compose.slice(0, -1));
    focusGuess();
  });

  $("#watch-step").addEventListener("click", () => {
    clearMessage();
    watchStep();
  });
  $("#watch-play").addEventListener("click", watchPlay);
  $("#watch-reset").addEventListener("click", () => {
    clearMessage();
    watchReset();
  });
  $("#watch-random").addEventListener("click", watchRandom);
  $("#watch-secret").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      watchPlay();
    }
  });

  $("#lab-run").addEventListener("click", () => {
    clearMessage();
    loadLab(true);
  });

  $("#assist-guess").addEventListener("input", assistGuessChanged);
  $("#assist-guess").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      assistAdd();
    }
  });
  $("#assist-add").addEventListener("click", assistAdd);
  $("#assist-cancel").addEventListener("click", () => {
    S.assist.editing = null;
    setAssistForm();
    renderAssistClues();
    refreshCut();
  });
  $("#assist-clear").addEventListener("click", () => {
    clearMessage();
    assistReset();
    resetCut();
    refreshHints();
  });
}

async function init() {
  bind();
  const mode = (location.hash || "#play").slice(1);
  setMode(mode);
  try {
    await loadRules();
  } catch (err) {
    reportError(err, "could not load the rules");
    return;
  }
  watchReset();
  assistReset();
  renderPlay();
  setMode(S.mode);
  await newGame();
  document.body.dataset.ready = "true";
}

init();
