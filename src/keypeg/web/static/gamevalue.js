/* The game value of the selected rules on the Match start screen (/api/value): the value
 * as a fraction and a mean, the codemaker's mixture over the kinds of secrets, and the
 * codebreaker's mixture of ways to play (first guesses and chances); or why it is out of
 * reach here. */

import * as api from "./api.js";
import { codeWithText } from "./board.js";
import { $, el, fmt, sentence, technical } from "./dom.js";
import { S } from "./state.js";

const values = new Map();
let valueSeq = 0;

const asNumber = (frac) => {
  const [p, q] = String(frac).split("/").map(Number);
  return p / (q || 1);
};
const percent = (frac) => `${(100 * asNumber(frac)).toFixed(1)}%`;
/** A chance as a teacher reads it: "never", "always", or "32/115 (27.8%)". */
const chance = (frac) => (asNumber(frac) === 0 ? "never" : asNumber(frac) === 1 ? "always"
  : `${frac} (${percent(frac)})`);

export async function loadValue() {
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
      const detail = technical(err.detail)
        ? "the game value of this game is out of reach: working it out needs more memory "
          + "than keypeg may use here."
        : err.detail;
      values.set(rules, { error: detail });
      renderValue({ error: detail });
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
  el("td", { class: "num", title: c.probability, text: chance(c.probability) }),
  el("td", { class: "num", title: c.codebreaker_cost, text: asNumber(c.codebreaker_cost).toFixed(4) }))));
  // (ways of playing often share their first guess: what tells them apart is how many
  // guesses each needs on each kind of secret)
  $("#match-value-breaker tbody").replaceChildren(...data.codebreaker.map((t, i) => el("tr", {
    "data-first-guess": t.first_guess, "data-probability": t.probability },
  el("td", { class: "num", text: String(i + 1) }),
  el("td", { class: "num", text: chance(t.probability) }),
  el("td", {}, codeWithText(t.first_guess)),
  el("td", { class: "value-costs" }, ...Object.entries(t.costs || {}).map(([kind, cost]) => el(
    "span", { class: "value-cost", "data-class": kind, title: cost },
    el("span", { class: "code-inline", text: kind }), ` ${asNumber(cost).toFixed(3)}`))))));
  $("#match-value-tables").hidden = false;
}
