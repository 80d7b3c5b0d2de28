/* How the guess being written would cut the codes still possible: one bar per answer it can
 * get, as long as the number of codes that answer would leave. */

import * as api from "./api.js";
import { percent } from "./belief.js";
import { feedbackLabelEl, codeEl } from "./board.js";
import { $, count, el, fmt, sentence } from "./dom.js";
import { N, S, current } from "./state.js";

let seq = 0;
const EMPTY_TEXT = "Write a whole guess to see the answers it can get and how many codes each "
  + "would leave.";

export function resetCut() {
  seq++;
  const bars = $("#cut-bars");
  bars.replaceChildren();
  bars.dataset.guess = "";
  bars.dataset.state = "empty";
  $("#cut-guess").textContent = "your guess";
  $("#cut-summary").textContent = EMPTY_TEXT;
  $("#cut-legend").hidden = true;
}

export async function refreshCut() {
  const mode = current();
  const panel = $("#hints");
  const guess = mode.composed ? mode.composed() : "";
  if (!S.rules || panel.hidden || guess.length !== S.rules.pegs
      || ["error", "over"].includes(panel.dataset.state)) {
    resetCut();
    return;
  }
  const s = ++seq;
  const bars = $("#cut-bars");
  bars.dataset.state = "loading";
  try {
    const res = await api.cut(S.rules.name, mode.history(), guess,
      mode.belief ? mode.belief() : {});
    if (s !== seq) return;
    renderCut(res);
  } catch (err) {
    if (s !== seq) return;
    bars.replaceChildren();
    bars.dataset.state = "error";
    bars.dataset.guess = "";
    $("#cut-legend").hidden = true;
    $("#cut-summary").textContent = sentence(err.detail || String(err));
  }
}

function renderCut(res) {
  const n = N();
  const bars = $("#cut-bars");
  const win = n.win();
  // under doubt (a clue may be wrong) no code is ruled out: the bars show how likely each
  // answer is instead of how many codes it leaves
  const weighed = res.parts.length > 0 && res.parts[0].probability !== undefined;
  const top = Math.max(...res.parts.map((p) => (weighed ? p.probability : p.size))) || 1;
  $("#cut-guess").replaceChildren(codeEl(res.guess, "mini"), ` ${res.guess}`);
  $("#cut-summary").textContent = weighed
    ? `${count(res.count, "possible answer")}; each bar is as long as the chance of that `
      + "answer, a clue being wrong allowed for."
    : `${count(res.count, "possible answer")}; the worst leaves `
      + `${fmt(res.largest)} of the ${count(res.candidates, "code")} still possible.`;
  bars.replaceChildren(...res.parts.map((p) => el("div", {
    class: `cut-row${p.feedback === win ? " win" : ""}${!weighed && p.size === res.largest ? " largest" : ""}`,
    "data-feedback": p.feedback, "data-size": p.size,
    "data-probability": weighed ? String(p.probability) : null,
    title: `${n.words(p.feedback)}: ${count(p.size, "code")} left`
      + (weighed ? `, ${percent(p.probability)} likely` : "") },
  feedbackLabelEl(p.feedback),
  el("span", { class: "bar-track" }, el("span", { class: "bar",
    style: `width:${Math.max(1.5, (100 * (weighed ? p.probability : p.size)) / top).toFixed(2)}%` })),
  el("span", { class: "num", text: weighed ? percent(p.probability) : fmt(p.size) }))));
  bars.dataset.guess = res.guess;
  bars.dataset.state = "ready";
  $("#cut-legend").hidden = weighed; // the summary says what the bars are
}
