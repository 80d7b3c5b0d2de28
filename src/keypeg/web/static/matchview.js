/* Drawing a match: whose turn it is, the board of the game in play (and of the game that
 * just ended), the hand-over screen, the final score, the score table with each game's
 * outcome, and the marks of a hand answer. */

import { codeWithText, emptyRowEl, marksLegend, rowEl, symbolEl } from "./board.js";
import { $, count, el, fmt, sentence } from "./dom.js";
import { M, inPlay, isPerson, isYou, lastOver, nameOf, says, twoPeople, whose } from "./matchstate.js";
import { N } from "./state.js";

export function renderStatus() {
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

export function renderEvents() {
  const box = $("#match-events");
  box.hidden = M.events.length === 0;
  box.replaceChildren(...M.events.map((t) => el("p", { class: "match-event", text: sentence(t) })));
}

export function renderHandover(v) {
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
    const secs = Math.round((Date.now() - busySince) / 1000);
    const took = secs >= 2 ? ` ${secs} s` : "";  // (a whole MM(8,8) game takes seconds)
    return `${head} ${computer ? `${sentence(nameOf(v, computer))} is playing…${took}` : "Sending…"}`;
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

let busySince = 0;
let busyTimer = null;

/** While a move is sent (the computer may play a whole game in it), count its seconds in
 * the turn line. */
function watchBusy() {
  if (!M.busy) {
    if (busyTimer) clearInterval(busyTimer);
    busyTimer = null;
    return;
  }
  if (busyTimer) return;
  busySince = Date.now();
  busyTimer = setInterval(() => {
    if (!M.busy || !M.view) {
      clearInterval(busyTimer);
      busyTimer = null;
      return;
    }
    $("#match-turn").textContent = turnText(M.view);
  }, 1000);
}

export function renderMatch(v) {
  watchBusy();
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
    el("th", { scope: "col", text: "Game" }), el("th", { scope: "col", text: "Codebreaker" }),
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
