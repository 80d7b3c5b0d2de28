/* Play: a game against a secret kept on the server. The page keeps the id of the game in
 * play under each rules in localStorage, so a reload (or coming back to those rules)
 * resumes it while it is not over. */

import * as api from "./api.js";
import { boardLegend, codeEl, emptyRowEl, rowEl } from "./board.js";
import { refreshCut, resetCut } from "./cut.js";
import { $, clearMessage, count, reportError, showMessage, store } from "./dom.js";
import { CodeEntry } from "./entry.js";
import { refreshHints } from "./hints.js";
import { N, S, modes } from "./state.js";

const fresh = () => ({ id: null, history: [], over: false, solved: false, gaveUp: false,
  secret: null, busy: false });
let P = fresh();
/** Where the id of the game in play under some rules is kept. */
const gameKey = (rules) => `keypeg.game.${rules}`;
/** Where the guess being written under some rules is kept, with its game's id ("ID CODE"):
 * a reload brings it back into that game. */
const draftKey = (rules) => `keypeg.draft.${rules}`;
const saveDraft = (p, code) => store.set(draftKey(S.rules.name), p.id ? `${p.id} ${code}` : "");
function savedDraft(id) {
  const [owner, code] = String(store.get(draftKey(S.rules.name), "")).split(" ");
  return owner === id ? code || "" : "";
}
let gameSeq = 0;
let entry = null;
// a guess the server refused is said in the banner until the guess is changed (it had
// stayed up beside newer notes until a guess was accepted)
let refusedShown = false;

export function setupPlay() {
  entry = new CodeEntry({
    input: $("#guess-input"), palette: $("#palette"), slots: $("#guess-slots"),
    note: $("#play-note"), prefix: "palette",
    onChange: () => {
      if (refusedShown) {
        refusedShown = false;
        clearMessage();
      }
      if (P.id && !P.over) saveDraft(P, entry.code);
      renderComposer();
      refreshCut();
    },
    onEnter: submitGuess,
    locked: () => (P.over ? "the game is over: press New game to play again."
      : !P.id ? "the game is still starting; try again in a moment." : null),
  });
  $("#new-game").addEventListener("click", () => {
    // (a game with guesses would be left unfinished, its secret never shown: as Give up
    // and New match do, ask first)
    if (P.id && P.history.length && !P.over && !window.confirm(
      `Start a new game? This one (${count(P.history.length, "guess")} so far) is left unfinished and its secret is not shown.`)) return;
    clearMessage();
    newGame();
  });
  $("#give-up").addEventListener("click", giveUp);
  $("#submit-guess").addEventListener("click", submitGuess);
  $("#backspace").addEventListener("click", () => {
    entry.backspace();
    entry.focus();
  });
  modes.play = {
    enter: () => entry.focus(),
    reset: () => {
      entry.rebuild();
      boardLegend($("#board-legend"));
    },
    history: () => P.history.map(([g, f]) => [g, f]),
    composed: () => (P.over ? "" : entry.code),
    use,
    over: overText,
    fetchHints: () => (P.id ? api.gameHints(P.id) : null),
    unfinished: () => Boolean(P.id && P.history.length && !P.over),
    key: onKey,
  };
}

/** Keys typed while no text box has the focus. */
function onKey(e) {
  if (P.over && e.key.length === 1 && e.key !== " ") {
    showMessage("this game is over: press New game to play again.", "info");
    return;
  }
  if (e.key === "Enter") {
    e.preventDefault();
    submitGuess();
  } else if (e.key === "Backspace") {
    e.preventDefault();
    entry.backspace();
    entry.focus();
  } else if (e.key.length === 1 && e.key !== " ") {
    e.preventDefault();
    entry.add(e.key);
    entry.focus();
  }
}

function use(code) {
  if (P.over) return;
  entry.set(code);
  entry.focus();
  $("#composer").scrollIntoView({ block: "nearest" });
}

function overText() {
  if (!P.over) return null;
  const what = P.solved ? "You found the code" : P.gaveUp ? "You gave up this game"
    : "This game is over";
  return `${what}: there are no more guesses to suggest. Press New game for a fresh game and fresh hints.`;
}

/** The stored game of `rules`, when it is still there, not over and under those rules. */
async function storedGame(rules) {
  const id = store.get(gameKey(rules), "");
  if (!id) return null;
  try {
    const game = await api.game(id);
    if (!game.over && game.rules === rules) return game;
  } catch (err) {
    if (err.status !== 404) return null; // kept for the next time the server answers
  }
  store.set(gameKey(rules), "");
  return null;
}

/** Start a game, or with `resume` go on with the stored game of these rules. */
export async function newGame({ resume = false } = {}) {
  const s = ++gameSeq;
  const rules = S.rules.name;
  P = { ...fresh(), busy: true };
  entry.set("", { quiet: true });
  entry.clearNote();
  resetCut();
  renderPlay();
  try {
    const kept = resume ? await storedGame(rules) : null;
    if (s !== gameSeq) return;
    const game = kept || await api.newGame(rules);
    if (s !== gameSeq) return;
    store.set(gameKey(rules), game.id);
    P.id = game.id;
    P.history = kept ? kept.history.map(([g, f]) => [g, f]) : [];
    P.busy = false;
    document.body.dataset.game = game.id;
    if (kept) entry.set(savedDraft(game.id), { quiet: true });
    renderPlay();
    if (S.mode === "play") {
      refreshHints();
      entry.focus();
    }
  } catch (err) {
    if (s !== gameSeq) return;
    P.busy = false;
    renderPlay();
    reportError(err, "could not start a game");
  }
}

async function submitGuess() {
  const p = P;
  const guess = entry.code;
  if (p.busy || !p.id) return;
  if (p.over) {
    entry.reject("the game is over: press New game to play again.");
    return;
  }
  const n = N();
  if (guess.length !== n.pegs) {
    entry.reject(`a guess needs ${count(n.pegs, n.digits ? "digit" : "peg")}; this one has ${guess.length}.`);
    return;
  }
  clearMessage();
  p.busy = true;
  renderComposer();
  try {
    const res = await api.guess(p.id, guess);
    if (P === p) saveDraft(p, "");
    if (P !== p) return;
    p.history.push([res.guess, res.feedback]);
    p.over = res.over;
    p.solved = res.solved;
    if (res.secret) p.secret = res.secret;
    p.busy = false;
    entry.set("", { quiet: true });
    resetCut();
    renderPlay();
    refreshHints();
    entry.focus();
  } catch (err) {
    if (P !== p) return;
    if (err.status === 409) await reload(p);
    if (P !== p) return;
    p.busy = false;
    renderPlay();
    if (p.over) refreshHints();
    reportError(err, `guess ${guess} not played`);
    refusedShown = true;
  }
}

/** The game as the server has it, after a guess it refused as over (given up or played
 * to its end in another tab): its rows, how it ended, and its secret. */
async function reload(p) {
  try {
    const g = await api.game(p.id);
    p.history = g.history.map(([a, b]) => [a, b]);
    p.over = g.over;
    p.solved = g.solved;
    p.secret = g.secret || null;
    const max = S.rules.max_guesses;
    p.gaveUp = g.over && !g.solved && !(max && g.history.length >= max);
  } catch {
    p.over = true;
  }
}

async function giveUp() {
  const p = P;
  if (!p.id || p.over || p.busy) return;
  if (!window.confirm("Give up this game? The secret is shown and the game ends.")) return;
  clearMessage();
  p.busy = true;
  renderComposer();
  try {
    const res = await api.giveUp(p.id);
    if (P !== p) return;
    p.secret = res.secret || null;
  } catch (err) {
    if (P !== p) return;
    p.busy = false;
    renderComposer();
    reportError(err, "could not give up");
    return;
  }
  p.over = true;
  p.gaveUp = true;
  p.busy = false;
  entry.set("", { quiet: true });
  renderPlay();
  refreshHints();
}

export function renderPlay() {
  const p = P;
  const n = N();
  const board = $("#board");
  const rows = p.history.map(([g, f], i) => rowEl(g, f, i));
  const max = S.rules.max_guesses;
  if (!p.over) {
    const last = max ? max : p.history.length + 1;
    for (let i = p.history.length; i < last; i++) rows.push(emptyRowEl(i));
  }
  board.replaceChildren(...rows);
  board.dataset.rows = String(p.history.length);
  const left = $("#attempts-left");
  if (max) {
    const k = Math.max(0, max - p.history.length);
    left.textContent = `${k} of ${max} attempts left`;
    left.dataset.left = String(k);
  } else {
    left.textContent = `${count(p.history.length, "guess")} · no limit`;
    left.dataset.left = "";
  }
  const result = $("#play-result");
  result.hidden = !p.over;
  result.dataset.result = p.over ? (p.solved ? "win" : p.gaveUp ? "gave-up" : "loss") : "";
  if (p.over) {
    const k = p.history.length;
    $("#play-result-text").textContent = p.solved ? `Solved in ${count(k, "guess")}!`
      : p.gaveUp ? `You gave up after ${count(k, "guess")}.`
        : `Out of attempts: the code was not found in ${count(k, "guess")}.`;
    const secret = $("#secret");
    secret.dataset.code = p.secret || "";
    secret.replaceChildren(p.secret ? codeEl(p.secret) : "hidden");
  }
  $("#panel-play").dataset.state = p.over ? (p.solved ? "won" : p.gaveUp ? "gave-up" : "lost")
    : "playing";
  $("#input-help").textContent = n.typingHelp();
  renderComposer();
}

function renderComposer() {
  const p = P;
  const done = p.over || !p.id;
  $("#guess-input").disabled = done;
  $("#submit-guess").disabled = done || p.busy || entry.code.length !== N().pegs;
  $("#backspace").disabled = done || entry.code.length === 0;
  $("#give-up").disabled = done || p.busy;
  $("#composer").classList.toggle("done", p.over);
  $("#composer").hidden = p.over;
  entry.render();
}
