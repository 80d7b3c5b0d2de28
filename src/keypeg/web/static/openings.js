/* The Lab's first-guess table (/api/openings): for every kind of opening, the total each
 * strategy needs when it must open with it, and the best possible total after it. */

import * as api from "./api.js";
import { codeWithText } from "./board.js";
import { $, el, fmt, sentence } from "./dom.js";
import { strategyInfo } from "./hints.js";
import { S } from "./state.js";

const cache = new Map();
let seq = 0;

export function resetOpenings() {
  seq++;
  const table = $("#openings-table");
  table.dataset.state = "empty";
  $("#openings-table thead").replaceChildren();
  $("#openings-table tbody").replaceChildren();
  $("#openings-note").hidden = true;
  $("#openings-loading").hidden = true;
}

export async function loadOpenings() {
  const rules = S.rules.name;
  // shown, or on its way (opening the Lab by its address enters it twice)
  if ($("#openings-table").dataset.rules === rules
      && ["ready", "loading"].includes($("#openings-table").dataset.state)) return;
  if (cache.has(rules)) {
    renderOpenings(cache.get(rules));
    return;
  }
  resetOpenings();
  const s = seq;
  const table = $("#openings-table");
  table.dataset.state = "loading";
  table.dataset.rules = rules;
  $("#openings-loading").hidden = false;
  try {
    const res = await api.openings(rules);
    cache.set(rules, res);
    if (s === seq) renderOpenings(res);
  } catch (err) {
    if (s !== seq) return;
    table.dataset.state = "error";
    const note = $("#openings-note");
    note.textContent = sentence(err.detail || String(err));
    note.hidden = false;
  } finally {
    if (s === seq) $("#openings-loading").hidden = true;
  }
}

function renderOpenings(res) {
  const table = $("#openings-table");
  const names = res.strategies;
  const columns = [...names, "optimal"];
  const value = (r, n) => (n === "optimal" ? r.optimal : r.totals[n]);
  // the best opening of each column (fewest guesses in all) is marked
  const best = Object.fromEntries(columns.map((n) => [n, Math.min(
    ...res.rows.map((r) => value(r, n)).filter((v) => v !== null && v !== undefined))]));
  $("#openings-table thead").replaceChildren(el("tr", {},
    el("th", { scope: "col", text: "Opening" }),
    el("th", { scope: "col", text: "First guess" }),
    columns.map((n) => el("th", { scope: "col", class: "num", title: n === "optimal"
      ? "the best possible total once this opening is played" : strategyInfo(n),
    text: n === "optimal" ? "best possible" : n }))));
  $("#openings-table tbody").replaceChildren(...res.rows.map((r) => el("tr", {
    "data-class": r.class, "data-first-guess": r.first_guess,
    "data-optimal": r.optimal ?? "" },
  el("td", { class: "c-class", title: `${fmt(r.codes)} codes open this way`, text: r.class }),
  el("td", { class: "c-first" }, codeWithText(r.first_guess)),
  columns.map((n) => {
    const v = value(r, n);
    return el("td", { class: `num${v === best[n] ? " best" : ""}${n === "optimal" ? " c-optimal" : ""}`,
      "data-strategy": n, "data-total": v ?? "",
      title: v === null || v === undefined ? "not found in time" : `mean ${(v / res.secrets).toFixed(4)}`,
      text: v === null || v === undefined ? "—" : fmt(v) });
  }))));
  const note = $("#openings-note");
  note.hidden = !res.note;
  note.textContent = res.note ? sentence(res.note) : "";
  table.dataset.rules = res.rules;
  table.dataset.state = "ready";
}
