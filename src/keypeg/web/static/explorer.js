/* The tree explorer (in the Lab): a strategy's decision tree, one node at a time. A node
 * shows its guess, how many secrets reach it and their total, mean and worst number of
 * guesses, and one row per answer the guess can get, each leading to the next node. Nodes
 * come from the server one by one (/api/tree), so big trees cost no more than small ones;
 * a secret's path (/api/tree/path) opens its last node and marks the path. */

import * as api from "./api.js";
import { codeWithText, feedbackLabelEl } from "./board.js";
import { $, count, el, fmt, sentence } from "./dom.js";
import { N, S, shortTitle } from "./state.js";

const X = { rules: null, strategy: null, node: null, path: new Set(), secret: "" };
const nodes = new Map(); // "rules|strategy|node" -> the server's answer
let seq = 0;

let choices = []; // the strategy menu's options, for every rules (offerTrees picks)

export function setupExplorer() {
  choices = [...$("#explorer-strategy").options];
  $("#explorer-open").addEventListener("click", () => openTree($("#explorer-strategy").value));
  $("#explorer-strategy").addEventListener("change", (e) => {
    if (X.rules) openTree(e.target.value);
  });
  $("#explorer-find").addEventListener("submit", (e) => {
    e.preventDefault();
    findSecret($("#explorer-secret").value.trim());
  });
}

/** Forget the tree shown (new rules). */
export function resetExplorer() {
  seq++;
  Object.assign(X, { rules: null, strategy: null, node: null, path: new Set(), secret: "" });
  const box = $("#explorer");
  box.dataset.state = "empty";
  for (const k of ["rules", "strategy", "node", "secret"]) delete box.dataset[k];
  $("#explorer-loading").hidden = true;
  $("#explorer-note").hidden = true;
  $("#explorer-summary").textContent = "";
  $("#explorer-crumbs").replaceChildren();
  $("#explorer-node").replaceChildren();
  if (S.rules) {
    $("#explorer-secret").placeholder = `e.g. ${N().example()}`;
    offerTrees();
  }
}

/** Offer the strategies whose tree the server shows for these rules (it refuses the rest,
 * by their size), and say why the others are missing. */
function offerTrees() {
  const trees = S.rules.trees || [];
  const menu = $("#explorer-strategy");
  const was = menu.value;
  menu.replaceChildren(...choices.filter((o) => trees.includes(o.value)));
  if (trees.length) menu.value = trees.includes(was) ? was : trees[0];
  $("#explorer-toolbar").hidden = !trees.length;
  const limits = $("#explorer-limits");
  const codes = count(S.rules.codes, "code");
  limits.hidden = trees.length === choices.length;
  limits.textContent = !trees.length
    ? `${shortTitle(S.rules)} has ${codes}, too many for a strategy's tree to be built here, and keypeg has no tree of its best possible play.`
    : `${shortTitle(S.rules)} has ${codes}, too many for the other strategies' trees to be built here: only the best possible play's tree can be shown.`;
}

/** Open the tree of `strategy` under the selected rules at its first guess. */
export function openTree(strategy, { scroll = false } = {}) {
  $("#explorer-strategy").value = strategy;
  X.path = new Set();
  X.secret = "";
  show(strategy, 0);
  if (scroll) $("#explorer").scrollIntoView({ behavior: "smooth", block: "start" });
}

async function fetchNode(rules, strategy, id) {
  const key = `${rules}|${strategy}|${id}`;
  if (!nodes.has(key)) nodes.set(key, await api.treeNode(rules, strategy, id));
  return nodes.get(key);
}

async function busy(text, work) {
  const s = ++seq;
  const box = $("#explorer");
  box.dataset.state = "loading";
  $("#explorer-note").hidden = true;
  $("#explorer-loading-text").textContent = text;
  // a tree built on the server for the first time can take seconds: say so after a moment
  const timer = setTimeout(() => { if (s === seq) $("#explorer-loading").hidden = false; }, 250);
  try {
    const res = await work();
    if (s === seq) render(res);
  } catch (err) {
    if (s !== seq) return;
    box.dataset.state = "error";
    const note = $("#explorer-note");
    note.textContent = sentence(err.detail || String(err));
    note.hidden = false;
  } finally {
    clearTimeout(timer);
    if (s === seq) $("#explorer-loading").hidden = true;
  }
}

function show(strategy, id) {
  const rules = S.rules.name;
  const fresh = X.rules !== rules || X.strategy !== strategy;
  X.rules = rules;
  X.strategy = strategy;
  return busy(fresh ? `Building the ${strategy} tree…` : "Opening the node…",
    () => fetchNode(rules, strategy, id));
}

function findSecret(text) {
  const rules = S.rules.name;
  const strategy = $("#explorer-strategy").value;
  if (!text) {
    $("#explorer-note").textContent = `Write a secret, e.g. ${N().example()}.`;
    $("#explorer-note").hidden = false;
    return null;
  }
  // read as the other code boxes do ("1-2-3-4" is 1234); what it cannot read goes as typed,
  // for the server's sentence on it
  const { code, rejected } = N().read(text);
  if (code.length === S.rules.pegs && !rejected.length) text = code;
  X.rules = rules;
  X.strategy = strategy;
  return busy(`Finding ${text} in the ${strategy} tree…`, async () => {
    const found = await api.treePath(rules, strategy, text);
    X.path = new Set(found.path.map((p) => p.node));
    X.secret = found.secret;
    return fetchNode(rules, strategy, found.path[found.path.length - 1].node);
  });
}

function numbers(r) {
  return `${count(r.size, "secret")} · total ${fmt(r.total)} · mean ${r.mean.toFixed(4)} · worst ${r.worst}`;
}

function render(res) {
  const box = $("#explorer");
  X.node = res.node;
  Object.assign(box.dataset, { state: "ready", rules: res.rules, strategy: res.strategy,
    node: String(res.node), secret: X.secret });
  const t = res.tree;
  // (the rules by their name, not their id: "on Mastermind", not "on classic")
  const preset = S.presets.find((p) => p.name === res.rules);
  const shown = preset ? shortTitle(preset) : res.rules;
  $("#explorer-summary").textContent = `${res.strategy} on ${shown}: first guess `
    + `${t.first_guess}, ${fmt(t.total)} guesses for all ${count(t.secrets, "secret")} `
    + `(mean ${t.mean.toFixed(4)}, worst ${t.worst}), ${count(t.nodes, "guess")} in the tree`;
  $("#explorer-crumbs").replaceChildren(...res.path.map((p, i) => el("button", {
    class: `crumb${p.node === res.node ? " current" : ""}${X.path.has(p.node) ? " on-path" : ""}`,
    type: "button", "data-node": p.node, "data-guess": p.guess,
    "aria-current": p.node === res.node ? "step" : null,
    title: i ? `after ${N().words(p.answer)}: guess ${i + 1} is ${p.guess}` : "the first guess",
    onclick: () => show(X.strategy, p.node) },
  p.answer ? feedbackLabelEl(p.answer) : null, codeWithText(p.guess))));
  $("#explorer-node").replaceChildren(nodeView(res));
}

function nodeView(res) {
  const top = Math.max(...res.answers.map((a) => a.size), 1);
  const rows = res.answers.map((a) => {
    const onPath = a.node !== null && X.path.has(a.node);
    const open = a.node === null ? null : () => show(X.strategy, a.node);
    return el("tr", { class: `${a.win ? "win" : ""}${onPath ? " on-path" : ""}`.trim() || null,
      "data-answer": a.answer, "data-node": a.node ?? "", "data-size": a.size,
      "data-total": a.total, "data-worst": a.worst },
    el("td", { class: "c-answer" }, a.win
      ? el("span", { class: "found" }, feedbackLabelEl(a.answer), ` found on guess ${res.depth}`)
      : el("button", { class: "answer-open", type: "button", onclick: open,
        "aria-label": `${N().words(a.answer)}: open the ${count(a.size, "secret")} left` },
      feedbackLabelEl(a.answer))),
    el("td", { class: "c-size", "data-label": "Secrets" }, el("span", { class: "size-cell" },
      el("span", { class: "bar-track" }, el("span", { class: "bar",
        style: `width:${Math.max(2, (100 * a.size) / top).toFixed(1)}%` })),
      el("span", { class: "num", text: fmt(a.size) }))),
    el("td", { class: "num c-total", "data-label": "Total", text: fmt(a.total) }),
    el("td", { class: "num c-mean", "data-label": "Mean", text: a.mean.toFixed(2) }),
    el("td", { class: "num c-worst", "data-label": "Worst", text: String(a.worst) }),
    el("td", { class: "c-next", "data-label": "Next" }, a.guess ? codeWithText(a.guess) : "—"));
  });
  const head = el("div", { class: "node-head", "data-guess": res.guess, "data-size": res.size,
    "data-total": res.total, "data-worst": res.worst, "data-depth": res.depth },
  el("span", { class: "node-title" }, `Guess ${res.depth}: `, codeWithText(res.guess)),
  el("span", { class: "node-numbers", text: numbers(res) }));
  const parts = [head];
  if (res.size === 1 && res.candidate) {
    parts.push(el("p", { class: "help node-leaf", text: `The one secret left is ${res.guess}: `
      + `found on guess ${res.depth}.` }));
  } else {
    parts.push(el("p", { class: "help", text: `${sentence(count(res.size, "secret"))} reach `
      + `this guess; each row is an answer it can get. Guesses counted from the start of the game.` }));
    parts.push(el("div", { class: "table-scroll" }, el("table", { class: "table answers-table" },
      el("thead", {}, el("tr", {}, ["Answer", "Secrets", "Total", "Mean", "Worst", "Next guess"]
        .map((h, i) => el("th", { scope: "col", class: i >= 2 && i <= 4 ? "num" : null, text: h })))),
      el("tbody", {}, rows))));
  }
  if (res.codes && res.size > 1) {
    parts.push(el("p", { class: "node-codes" }, "The secrets here: ",
      res.codes.map((c) => el("span", { class: `chip${c === X.secret ? " on-path" : ""}`,
        "data-code": c, text: c }))));
  }
  return el("div", {}, parts);
}
