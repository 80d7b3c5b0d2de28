/* Lab: every strategy played against every secret of the rules (or a sample, labelled so),
 * the optimal row first where the optimum is known; below, the first-guess table and the
 * tree explorer (each row's "tree" button opens its strategy there). */

import * as api from "./api.js";
import { codeWithText } from "./board.js";
import { $, clearMessage, count, el, fmt, reportError, sentence } from "./dom.js";
import { openTree, resetExplorer, setupExplorer } from "./explorer.js";
import { strategyInfo } from "./hints.js";
import { loadOpenings, resetOpenings } from "./openings.js";
import { S, modes } from "./state.js";

const cache = new Map();
let seq = 0;
let timer = null;

export function setupLab() {
  $("#lab-run").addEventListener("click", () => {
    clearMessage();
    loadLab(true);
  });
  setupExplorer();
  const enter = () => {
    loadLab();
    loadOpenings();
  };
  modes.lab = {
    enter,
    reset: () => {
      resetExplorer();
      resetOpenings();
      if (S.mode === "lab") enter();
    },
  };
}

/** The row's button that opens its strategy's tree in the explorer (for games of at most
 * 8,192 codes: the server builds bigger trees only from the command line; a bigger game's
 * optimal row comes from a tree keypeg ships, which the server serves). */
function treeButton(r, res) {
  if (!res.exact || (res.secrets > 8192 && r.strategy !== "optimal")) return null;
  return el("button", { class: "button small tree-button", type: "button",
    "data-explore": r.strategy, "aria-label": `Explore the ${r.strategy} tree`,
    title: "open this strategy's decision tree in the explorer below",
    onclick: () => openTree(r.strategy, { scroll: true }) }, "Tree");
}

async function loadLab(force = false) {
  const rules = S.rules.name;
  const table = $("#lab-table");
  if (!force && cache.has(rules)) {
    renderLab(cache.get(rules));
    return;
  }
  if (!force && table.dataset.state === "loading" && table.dataset.rules === rules) return;
  const s = ++seq;
  table.dataset.state = "loading";
  table.dataset.rules = rules;
  $("#lab-table tbody").replaceChildren();
  $("#lab-note").hidden = true;
  $("#lab-meta").textContent = "";
  const what = S.rules.codes > 8192
    ? `Evaluating every strategy on these ${fmt(S.rules.codes)} codes (exact where known, else over sampled secrets; this can take a while)…`
    : `Playing every strategy against all ${count(S.rules.codes, "secret")}…`;
  const started = Date.now();
  const tick = () => {
    const secs = Math.round((Date.now() - started) / 1000);
    $("#lab-loading-text").textContent = secs >= 2 ? `${what} ${secs} s` : what;
  };
  tick();
  clearInterval(timer);
  timer = setInterval(tick, 1000);
  $("#lab-loading").hidden = false;
  $("#lab-run").disabled = true;
  try {
    const res = await api.lab(rules);
    if (s !== seq) return;
    cache.set(rules, res);
    // (a lab is the same each time: shipped, exact, or sampled with a fixed seed, so the
    // button, "Recompute", had given the same table again; it is there after a failure)
    $("#lab-run").hidden = true;
    if (S.rules.name === rules) renderLab(res);
  } catch (err) {
    if (s !== seq) return;
    table.dataset.state = "error";
    $("#lab-run").hidden = false;
    reportError(err, `no lab for ${rules}`);
  } finally {
    if (s === seq) {
      clearInterval(timer);
      $("#lab-loading").hidden = true;
      $("#lab-run").disabled = false;
    }
  }
}

function histogram(r) {
  const top = Math.max(...r.histogram, 1);
  return el("div", { class: "hist", role: "img",
    "aria-label": `found on guess 1 to ${r.histogram.length}: ${r.histogram.join(", ")}` },
  r.histogram.map((k, i) => el("div", { class: "hist-col", "data-guess": i + 1, "data-count": k,
    title: `${count(k, "secret")} found on guess ${i + 1}` },
  el("span", { class: "hist-n", text: k ? fmt(k) : "" }),
  el("span", { class: "hist-bar", style: `height:${k ? Math.max(2, (40 * k) / top) : 0}px` }),
  el("span", { class: "hist-x", text: String(i + 1) }))));
}

function renderLab(res) {
  const table = $("#lab-table");
  // A sampled lab with exact walks recorded ahead of time (MM(6,9)): the exact rows, then
  // the sampled rows of the strategies not walked, marked so (the table had shown the
  // 100-secret sample, its order not the exact one, the exact means only in the note)
  const recorded = res.recorded || [];
  const walked = new Set(recorded.map((r) => r.strategy));
  const listed = recorded.length ? [...recorded,
    ...res.rows.filter((r) => !walked.has(r.strategy)).map((r) => ({ ...r, sampled: true }))]
    : res.rows;
  const measured = res.exact || recorded.length > 0;
  // the optimum first, where it is known; then the strategies as the server lists them
  const rows = [...listed.filter((r) => r.strategy === "optimal"),
    ...listed.filter((r) => r.strategy !== "optimal")];
  // (no "best" on a sample: maxsize was "best" on MM(8,8) by 1 guess over 30 secrets)
  const best = measured ? Math.min(...rows.filter((r) => r.strategy !== "optimal" && !r.sampled)
    .map((r) => r.mean)) : null;
  table.dataset.rules = res.rules;
  table.dataset.exact = String(res.exact);
  table.dataset.recorded = String(recorded.length > 0);
  $("#lab-table tbody").replaceChildren(...rows.map((r) => {
    const optimal = r.strategy === "optimal";
    const cls = optimal ? "optimal" : r.mean === best ? "best" : "";
    return el("tr", { "data-strategy": r.strategy, "data-total": r.total, "data-mean": r.mean,
      "data-worst": r.worst, "data-first-guess": r.first_guess || "", class: cls || null },
    el("td", { class: "strat-name c-name", title: strategyInfo(r.strategy) }, r.strategy,
      optimal ? el("span", { class: "tag rec", text: "best possible" })
        : cls === "best" ? el("span", { class: "tag", text: "best strategy" })
          : r.sampled ? el("span", { class: "tag", text: "sampled",
            title: `over ${count(r.games, "sampled secret")}, not every secret` }) : null,
      treeButton(r, res)),
    el("td", { class: "c-first", "data-label": "First guess" },
      r.first_guess ? codeWithText(r.first_guess) : "—"),
    el("td", { class: "num c-total", "data-label": "Total", text: fmt(r.total) }),
    el("td", { class: "num c-mean", "data-label": "Mean", text: r.mean.toFixed(4) }),
    el("td", { class: "num c-worst", "data-label": "Worst", text: String(r.worst) }),
    el("td", { class: "c-hist" }, histogram(r)));
  }));
  const games = res.rows[0] && res.rows[0].games;
  // (a shipped lab's seconds are those it took when computed ahead of time, not now)
  const s = res.seconds >= 100 ? fmt(Math.round(res.seconds))
    : res.seconds.toFixed(res.seconds >= 10 ? 1 : 2); // (it had shown "482.359 s")
  const took = res.shipped ? `computed ahead in ${s} s, shipped with keypeg` : `${s} s`;
  const sampledNames = rows.filter((r) => r.sampled).map((r) => r.strategy);
  $("#lab-meta").textContent = res.exact
    ? `exact · all ${count(res.secrets, "secret")} · ${took}`
    : recorded.length ? `exact · all ${count(res.secrets, "secret")} · walked ahead of time`
      + (sampledNames.length ? ` (${sampledNames.join(", ")}: ${count(games, "sampled secret")})` : "")
    : `approximate · ${games ? `${count(games, "sampled secret")} each, of ${fmt(res.secrets)}` : count(res.secrets, "secret")} · ${took}`;
  const note = $("#lab-note");
  note.hidden = res.exact;
  note.textContent = res.exact ? "" : sentence(res.note || "approximate results.");
  $("#lab-optimal-missing").hidden = rows.some((r) => r.strategy === "optimal");
  table.dataset.state = "ready";
}
