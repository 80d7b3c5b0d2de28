/* Match moves: starting a match from the form, a guess, the codemaker's secret (forgotten
 * by the page as soon as it is sent), a hand answer (a refusal shown next to the form, the
 * answers it conflicts with outlined on the board), giving up. */

import * as api from "./api.js";
import { $, clearMessage, count, reportError, sentence } from "./dom.js";
import { M, apply, inPlay, send, twoPeople } from "./matchstate.js";
import { N, S } from "./state.js";

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

export async function startMatch() {
  if (M.busy) return;
  clearMessage();
  M.busy = true;
  M.render();
  try {
    const view = await api.newMatch(formOptions());
    M.busy = false;
    M.ack = "";
    M.handover = "";
    M.conflict = [];
    M.other = null;
    apply(view);
    M.guessEntry.set("", { quiet: true });
    M.secretEntry.set("", { quiet: true });
    M.renderControls();
    M.guessEntry.focus();
  } catch (err) {
    M.busy = false;
    M.render();
    reportError(err, "could not start the match");
  }
}

export async function submitGuess() {
  const v = M.view;
  if (!v || M.busy || v.phase !== "guess") return;
  const code = M.guessEntry.code;
  const n = N();
  if (code.length !== n.pegs) {
    M.guessEntry.reject(`a guess needs ${count(n.pegs, n.digits ? "digit" : "peg")}; this one has ${code.length}.`);
    return;
  }
  try {
    if (!(await send(`guess ${code} not played`, (id) => api.matchGuess(id, code)))) return;
    M.guessEntry.set("", { quiet: true });
    M.renderControls();
    M.guessEntry.focus();
  } catch (_) {
    /* shown */
  }
}

export async function submitSecret(random = null) {
  const v = M.view;
  if (!v || M.busy || v.phase !== "secret") return;
  const code = random || M.secretEntry.code;
  const n = N();
  if (!random && code.length !== n.pegs) {
    M.secretEntry.reject(`a secret needs ${count(n.pegs, n.digits ? "digit" : "peg")}; this one has ${code.length}.`);
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
  M.secretEntry.set("", { quiet: true });
  $("#match-secret-show").checked = false;
  $("#match-secret-input").type = "password";
  if (people && M.view && !M.view.over && M.view.current === game) {
    M.handover = `breaker:${game}`;
  }
  M.render();
}

function answerText() {
  const n = N();
  if (n.positional) return n.format(M.marks);
  return n.format([Number($("#match-black").value), Number($("#match-white").value)]);
}

export async function submitAnswer() {
  const v = M.view;
  if (!v || M.busy || v.phase !== "answer") return;
  const answer = answerText();
  const note = $("#match-answer-note");
  const game = inPlay(v);
  const pending = game ? game.pending : null;  // (an answer sent twice lands nowhere)
  try {
    const sent = await send(`answer ${answer} not given`,
      (id) => api.matchAnswer(id, answer, pending), { own422: true });
    if (!sent) return;
    M.conflict = [];
    note.hidden = true;
    note.textContent = "";
    M.render();
  } catch (err) {
    if (err.status !== 422) return;
    // refused: say why, and outline the earlier answers it conflicts with
    const made = inPlay(M.view);
    const mine = made ? made.history.length + 1 : 0;
    M.conflict = (err.body.conflict || []).filter((i) => i !== mine).map((i) => i - 1);
    note.textContent = sentence(err.detail);
    note.hidden = false;
    M.render();
  }
}

export async function giveUp() {
  const v = M.view;
  if (!v || M.busy || v.phase !== "guess") return;
  // one click conceded the most points a game can give: ask first, as New match does
  if (!window.confirm(`Give up this game? The codemaker scores ${count(v.max_points, "point")}.`)) return;
  try {
    await send("could not give up", (id) => api.matchGiveUp(id));
  } catch (_) {
    /* shown */
  }
}
