/* The hints panel: how many codes are still possible, the guess keypeg recommends, what
 * each strategy would play (strongest first), the codes themselves when few, and (cut.js)
 * how the guess being written would cut them.
 *
 * In Play the panel is shown only when asked for, and the choice is kept in localStorage;
 * in Assist it is the point of the mode and always shown. Once a game is over it offers no
 * more guesses. Answers that arrive after a newer request are dropped. */

import { renderLikely } from "./belief.js";
import { codeEl } from "./board.js";
import { refreshCut, resetCut } from "./cut.js";
import { $, count, el, fmt, plural, reportError, sentence, store } from "./dom.js";
import { S, current } from "./state.js";
import { panelMoved, showRecommendation, useButton } from "./recommend.js";

export { strategyInfo } from "./recommend.js";

const KEY = "keypeg.hints";
let seq = 0;

export const historyKey = (h) => h.map(([g, f]) => `${g}=${f}`).join(",");

/* ------------------------------------------------------------------ showing and hiding */
export const hintsChosen = () => store.get(KEY) === "shown";
const wanted = () => S.mode === "assist" || (S.mode === "play" && hintsChosen());

/** Show or hide the panel in Play (remembered); `reveal` scrolls it into view. */
export function chooseHints(shown) {
  store.set(KEY, shown ? "shown" : "hidden");
  syncHints({ reveal: shown });
}

/** Show the panel where the mode and the player's choice want it, and fill it. */
export function syncHints({ reveal = false } = {}) {
  const panel = $("#hints");
  const show = wanted();
  const opening = show && panel.hidden;
  panel.hidden = !show;
  document.body.dataset.hints = show ? "shown" : "hidden";
  const toggle = $("#hints-toggle");
  toggle.setAttribute("aria-expanded", String(hintsChosen()));
  toggle.textContent = hintsChosen() ? "Hide hints" : "Show hints";
  $("#hints-close").hidden = S.mode !== "play";
  if (opening) {
    refreshHints();
    refreshCut();
  }
  if (show && reveal && panel.getBoundingClientRect().top > window.innerHeight - 120) {
    panel.scrollIntoView({ block: "start" });
  }
}

export const hintsShown = () => !$("#hints").hidden;

/* ------------------------------------------------------------------ fetching */
export async function refreshHints(answer = null) { // answer(): the hints, asked for already
  const panel = $("#hints");
  const mode = current();
  if (panel.hidden || !mode.history || !S.rules) return;
  const history = mode.history();
  const s = ++seq;
  panelMoved();
  panel.dataset.history = historyKey(history);
  panel.dataset.mode = S.mode;
  panel.dataset.rules = S.rules.name;
  panel.dataset.noise = (mode.belief && mode.belief().noise) || "exact";
  const over = mode.over ? mode.over() : null;
  if (over) {
    renderOver(over);
    panel.dataset.state = "over";
    $("#hint-loading").hidden = true;
    return;
  }
  panel.dataset.state = "loading";
  $("#hint-loading").hidden = false;
  try {
    const h = await (answer ? answer() : mode.fetchHints(history));
    if (s !== seq || !h) return;
    renderHints(h);
    panel.dataset.state = "ready";
    if (mode.hintsOk) mode.hintsOk(h);
  } catch (err) {
    if (s !== seq) return;
    panel.dataset.state = "error";
    if (mode.hintsFailed && mode.hintsFailed(err)) {
      renderError("no code fits all of these clues; edit or remove the wrong one.");
    } else {
      renderError(err.detail || String(err));
      reportError(err, "no hints");
    }
  } finally {
    if (s === seq) $("#hint-loading").hidden = true;
  }
}

function renderList(h) {
  const list = $("#hint-list");
  if (!Array.isArray(h.list) || !h.list.length || h.solved) {
    list.hidden = true;
    list.replaceChildren();
    return;
  }
  const n = h.list.length;
  list.hidden = false;
  list.replaceChildren(
    el("div", { class: "hint-list-title", text: `The ${n === 1 ? "code" : `${fmt(n)} codes`} still possible:` }),
    el("div", { class: "chips" }, h.list.map((c) => el("button", {
      type: "button", class: "chip", "data-code": c, title: `Use ${c}`, "aria-label": `Use ${c}`,
      onclick: () => current().use(c) }, codeEl(c, "mini")))),
  );
}

export function renderHints(h) {
  $("#hint-over").hidden = true;
  $("#hint-body").hidden = false;
  $("#hint-error").hidden = true;
  const c = $("#hint-count");
  c.textContent = fmt(h.candidates);
  c.dataset.count = String(h.candidates);
  $("#hint-count-label").textContent = h.likely
    ? `${plural("code", h.candidates)} not ruled out (a clue may be wrong)`
    : `${plural("code", h.candidates)} still possible`;
  $("#hint-bits").textContent = h.bits.toFixed(2);
  $("#hint-bits").dataset.bits = String(h.bits);
  const note = $("#hint-note");
  note.hidden = !h.note;
  note.textContent = h.note ? sentence(h.note) : "";
  showRecommendation(h);
  renderLikely(h);
  renderList(h);
}

function clearGuesses() {
  const rec = $("#hint-recommended");
  rec.replaceChildren();
  rec.dataset.guess = "";
  rec.dataset.strategy = "";
  $("#hint-strategies tbody").replaceChildren();
  $("#hint-strategies-box").hidden = true;
  $("#hint-list").replaceChildren();
  $("#hint-list").hidden = true;
  renderLikely({});
  $("#hint-note").hidden = true;
  resetCut();
}

/** The game is over: say so, and offer no guesses. */
function renderOver(text) {
  clearGuesses();
  $("#hint-body").hidden = true;
  const over = $("#hint-over");
  over.textContent = text;
  over.hidden = false;
}

function renderError(detail) {
  clearGuesses();
  $("#hint-over").hidden = true;
  $("#hint-body").hidden = false;
  $("#hint-count").textContent = "–";
  $("#hint-count").dataset.count = "";
  $("#hint-count-label").textContent = "codes still possible";
  $("#hint-bits").textContent = "–";
  const box = $("#hint-error");
  box.textContent = `No hints: ${detail}`;
  box.hidden = false;
}
