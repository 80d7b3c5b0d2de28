/* keypeg page: loads the rules presets, switches between Play, Watch, Lab, Assist and Match, and
 * routes keys typed outside the text boxes to Play. Plain ES modules, no build step. */

import * as api from "./api.js";
import { setupAssist } from "./assist.js";
import { resetCut } from "./cut.js";
import { $, clearMessage, count, el, reportError, showMessage } from "./dom.js";
import { chooseHints, hintsChosen, refreshHints, syncHints } from "./hints.js";
import { setupLab } from "./lab.js";
import { setupMatch } from "./match.js";
import { Notation } from "./notation.js";
import { newGame, renderPlay, setupPlay } from "./play.js";
import { S, current, modes, shortTitle } from "./state.js";
import { setupWatch } from "./watch.js";

const MODES = ["play", "watch", "lab", "assist", "match"];


async function loadRules() {
  const select = $("#rules-select");
  S.presets = await api.rules();
  select.replaceChildren(...S.presets.map((p) =>
    el("option", { value: p.name, title: p.title, text: shortTitle(p) })));
  const wanted = new URLSearchParams(location.search).get("rules");
  const found = S.presets.find((p) => p.name === wanted || (p.aliases || []).includes(wanted));
  const initial = found || S.presets.find((p) => p.name === "classic") || S.presets[0];
  select.value = initial.name;
  select.disabled = false;
  applyRules(initial);
  if (wanted !== null && !found) {
    const named = wanted.length > 40 ? `${wanted.slice(0, 40)}…` : wanted; // (as the API: 40)
    showMessage(`there are no rules called "${named}": ${shortTitle(initial)} (${initial.name}) is shown instead.`, "info");
  }
}

function applyRules(preset) {
  S.rules = preset;
  S.notation = new Notation(preset);
  const body = document.body.dataset;
  body.rules = preset.name;
  body.feedback = preset.feedback;
  body.digits = String(Boolean(preset.digits));
  body.pegs = String(preset.pegs);
  body.terms = S.notation.terms.black;
  // the description says the pegs, the symbols and the rows; add only the number of codes
  $("#rules-desc").textContent = `${preset.description || preset.title} · ${count(preset.codes, "code")}`;
  $("#rules-desc").title = preset.title || "";
  const url = new URL(location.href);
  url.searchParams.set("rules", preset.name);
  history.replaceState(null, "", url);
  let cluesDropped = false;
  for (const m of MODES) {
    const r = modes[m].reset && modes[m].reset();
    if (m === "assist" && r) cluesDropped = true;
  }
  resetCut();
  return cluesDropped;
}

async function changeRules(name) {
  const preset = S.presets.find((p) => p.name === name);
  if (!preset) return;
  const old = shortTitle(S.rules);
  const game = modes.play.unfinished();
  clearMessage();
  const clues = applyRules(preset);
  // nothing is lost: the game in play and the clues are kept for their rules
  const kept = [game ? "game" : "", clues ? "assist clues" : ""].filter(Boolean).join(" and ");
  if (kept) {
    showMessage(`your ${old} ${kept} ${game && !clues ? "is" : "are"} kept: choose ${old} again to go on.`, "info");
  }
  await newGame({ resume: true });
  if (S.mode === "assist") refreshHints();
}

/** Show `mode`'s panel; `push`: a tab the user chose, a step of the browser's history
 * (Back returns to the tab before; it had left the page, each tab replacing the last). */
function setMode(mode, push = false) {
  if (!MODES.includes(mode)) mode = "play";
  S.mode = mode;
  document.body.dataset.mode = mode;
  for (const tab of document.querySelectorAll(".tab")) {
    tab.setAttribute("aria-selected", String(tab.dataset.mode === mode));
    tab.tabIndex = tab.dataset.mode === mode ? 0 : -1;
  }
  for (const m of MODES) $(`#panel-${m}`).hidden = m !== mode;
  const url = `${location.pathname}${location.search}#${mode}`;
  if (push && location.hash !== `#${mode}`) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
  if (!S.rules) return;
  // the panel may stay shown between Play and Assist: its content is about the other mode
  $("#hints").hidden = true;
  syncHints();
  if (current().enter) current().enter();
}

function isTextTarget(t) {
  return t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA"
    || t.isContentEditable);
}

function onGlobalKey(e) {
  if (S.mode !== "play" || !S.rules || e.ctrlKey || e.metaKey || e.altKey) return;
  if (isTextTarget(e.target)) return;
  if (e.key === "Enter" && e.target !== document.body && e.target !== document.documentElement) {
    return; // Enter on a button clicks it
  }
  modes.play.key(e);
}

/** Tabs: click, or the arrow keys between them (the ARIA tabs pattern). */
function bindTabs() {
  const tabs = [...document.querySelectorAll(".tab")];
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => setMode(tab.dataset.mode, true));
    tab.addEventListener("keydown", (e) => {
      const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      e.preventDefault();
      const next = tabs[(i + step + tabs.length) % tabs.length];
      next.focus();
      setMode(next.dataset.mode, true);
    });
  });
}

async function init() {
  $("#message-close").addEventListener("click", clearMessage);
  $("#rules-select").addEventListener("change", (e) => changeRules(e.target.value));
  $("#hints-toggle").addEventListener("click", () => chooseHints(!hintsChosen()));
  $("#hints-close").addEventListener("click", () => {
    chooseHints(false);
    $("#hints-toggle").focus({ preventScroll: true });
  });
  document.addEventListener("keydown", onGlobalKey);
  // #lab typed in the address bar (or a link to it) switches the mode
  window.addEventListener("hashchange", () => setMode(location.hash.slice(1)));
  bindTabs();
  setupPlay();
  setupWatch();
  setupLab();
  setupAssist();
  setupMatch();
  setMode((location.hash || "#play").slice(1));
  try {
    await loadRules();
  } catch (err) {
    reportError(err, "could not load the rules");
    return;
  }
  renderPlay();
  setMode(S.mode);
  await newGame({ resume: true });
  document.body.dataset.ready = "true";
}

init();
