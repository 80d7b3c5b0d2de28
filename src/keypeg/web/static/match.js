/* Match: two players over an even number of games, taking turns as codebreaker and
 * codemaker; only the codemaker scores (keypeg.match). Against the computer, or two people
 * on one screen, where a "hand the device over" screen hides each secret before the other
 * player guesses. The server keeps the match (and every secret until its game is over);
 * the page keeps only the match id, in localStorage, so a reload resumes it. The start
 * screen also shows the game value of the rules (gamevalue.js). The state is in
 * matchstate.js, the moves in matchplay.js, the drawing in matchview.js. */

import * as api from "./api.js";
import { answerMenus } from "./board.js";
import { $, clearMessage, reportError, sentence, store } from "./dom.js";
import { CodeEntry } from "./entry.js";
import { loadValue } from "./gamevalue.js";
import { giveUp, startMatch, submitAnswer, submitGuess, submitSecret } from "./matchplay.js";
import { KEY, M, handoverDue, inPlay, isPerson, nameOf, storedId } from "./matchstate.js";
import { renderEvents, renderHandover, renderMatch, renderStatus } from "./matchview.js";
import { N, S, modes } from "./state.js";

export function setupMatch() {
  M.render = render;
  M.renderControls = renderControls;
  M.guessEntry = new CodeEntry({
    input: $("#match-guess-input"), palette: $("#match-palette"), slots: $("#match-guess-slots"),
    note: $("#match-guess-note"), prefix: "match-palette",
    onChange: () => {
      saveDraft();
      renderControls();
    }, onEnter: submitGuess,
    locked: () => (M.busy ? "wait for the answer to the last move." : null),
  });
  M.secretEntry = new CodeEntry({
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
  for (const radio of document.querySelectorAll("input[name=match-answering]")) {
    radio.addEventListener("change", renderControls);
  }
  $("#match-new").addEventListener("click", leaveMatch);
  $("#match-give-up").addEventListener("click", giveUp);
  $("#match-backspace").addEventListener("click", () => {
    M.guessEntry.backspace();
    M.guessEntry.focus();
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
    if (M.view && M.view.phase === "secret") M.secretEntry.focus();
    else M.guessEntry.focus();
  });
  $("#match-resume-button").addEventListener("click", resumeOther);
  modes.match = { enter, reset };
}

/** New rules: new palettes and answer form; the match shown only if it is under them. */
function reset() {
  const n = N();
  M.guessEntry.rebuild();
  M.secretEntry.rebuild();
  $("#match-secret-input").placeholder = "the secret";
  $("#match-answer-bw").hidden = n.positional;
  $("#match-answer-pos").hidden = !n.positional;
  $("#match-black-label").textContent = sentence(n.term("black", 2));
  $("#match-white-label").textContent = sentence(n.term("white", 2));
  answerMenus($("#match-black"), $("#match-white"), n.pegs);
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

// The guess being written is kept with the move it is for (a reload, or other rules and
// back, had emptied the box), as Play keeps its own; a secret is never kept.
const DRAFT = "keypeg.match.draft";
const position = (v) => (v && inPlay(v) ? `${v.id}:${v.current}:${inPlay(v).history.length}` : "");
function saveDraft() {
  const at = position(M.view);
  if (at) store.set(DRAFT, M.guessEntry.code ? `${at} ${M.guessEntry.code}` : "");
}
function restoreDraft(v) {
  const [at, code] = String(store.get(DRAFT, "") || "").split(" ");
  if (!M.guessEntry.code && code && at === position(v)) M.guessEntry.set(code, { quiet: true });
}

function renderControls() {
  const v = M.view;
  const playing = Boolean(v) && !v.over && !handoverDue(v);
  const g = v && inPlay(v);
  const guessing = playing && v.phase === "guess" && isPerson(v, g.breaker);
  if (guessing) restoreDraft(v);
  const secret = playing && v.phase === "secret" && isPerson(v, g.maker);
  const answering = playing && v.phase === "answer" && isPerson(v, g.maker);
  $("#match-guess").hidden = !guessing;
  $("#match-secret").hidden = !secret;
  $("#match-answer").hidden = !answering;
  $("#match-give-up").hidden = !guessing;
  $("#match-give-up").disabled = M.busy;
  $("#match-guess-input").disabled = M.busy;
  $("#match-submit-guess").disabled = M.busy || !N() || M.guessEntry.code.length !== N().pegs;
  $("#match-backspace").disabled = M.busy || M.guessEntry.code.length === 0;
  $("#match-submit-secret").disabled = M.busy || !N() || M.secretEntry.code.length !== N().pegs;
  // a random secret is kept hidden: nobody could answer its guesses by hand
  const byHand = document.querySelector("input[name=match-answering]:checked").value === "hand";
  $("#match-secret-random").disabled = M.busy || byHand;
  $("#match-secret-random").title = byHand
    ? "a random secret is kept hidden: to answer by hand, type your own secret"
    : "keypeg draws a secret for you, kept hidden";
  $("#match-submit-answer").disabled = M.busy;
  if (!answering) {
    $("#match-answer-note").hidden = true;
    M.marks = [];
  }
  if (guessing) M.guessEntry.render();
  if (secret) M.secretEntry.render();
}
