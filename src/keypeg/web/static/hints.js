/* The hints panel: how many codes are still possible, the guess keypeg recommends, what
 * each strategy would play (strongest first), the codes themselves when few, and (cut.js)
 * how the guess being written would cut them.
 *
 * In Play the panel is shown only when asked for, and the choice is kept in localStorage;
 * in Assist it is the point of the mode and always shown. Once a game is over it offers no
 * more guesses. Answers that arrive after a newer request are dropped. */

import { percent, renderLikely } from "./belief.js";
import { codeEl, codeWithText } from "./board.js";
import { refreshCut, resetCut } from "./cut.js";
import { $, count, el, fmt, plural, reportError, sentence, store } from "./dom.js";
import { S, current } from "./state.js";
import * as api from "./api.js";

const KEY = "keypeg.hints";
const STRATEGY_INFO = {
  consistent: "plays the first code that is still possible",
  random: "plays a random code that is still possible",
  maxsize: "Knuth: makes the largest part as small as possible",
  expsize: "Irving: makes the expected part size as small as possible",
  entropy: "Neuwirth: gains the most information (entropy)",
  parts: "Kooi: splits the codes into the most parts",
  optimal: "the fewest guesses on average (exact search)",
  information: "gains the most information about the secret, allowing for wrong answers",
  likeliest: "plays the most likely secret",
  genetic: "Berghman, Goossens and Leus: evolves codes that fit the clues, plays the one that best splits them",
};
let seq = 0;

export const strategyInfo = (name) => STRATEGY_INFO[name] || "";
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
      renderError("the clues cannot all hold; edit or remove one of them.");
    } else {
      renderError(err.detail || String(err));
      reportError(err, "no hints");
    }
  } finally {
    if (s === seq) $("#hint-loading").hidden = true;
  }
}

/* ------------------------------------------------------------------ drawing */
/** The strategies, strongest first (the server orders them). */
export const ordered = (h) => (h.strategies || []).slice();

/** The guess keypeg recommends: the server's pick, else the optimal, else the strongest. */
export function recommendation(h) {
  if (h.recommended !== undefined) return h.recommended;
  return h.optimal || ordered(h)[0] || null;
}

const useButton = (code, id = null, text = "Use") => el("button", { type: "button", id,
  class: "button small use", "data-use": code, title: `Write ${code} as your next guess`,
  onclick: () => current().use(code), text });

/** Why there is no optimal guess, in a player's words (never a table size). */
function optimalMissing(note) {
  if (note && !/\b(MB|GB|KB|bytes?|memory|table)\b/i.test(note)) return sentence(note);
  return "Working out the very best guess here would take too long; the recommendation is "
    + "the strongest strategy's guess.";
}

function renderRecommended(h) {
  const box = $("#hint-recommended");
  const rec = h.solved ? null : recommendation(h);
  box.dataset.guess = rec ? rec.guess : "";
  box.dataset.strategy = rec ? rec.name : "";
  if (h.solved) {
    box.replaceChildren(el("span", { class: "solved-note", text: "Solved: the code is found." }));
    return;
  }
  if (!rec) {
    box.replaceChildren();
    return;
  }
  // (a ranking keypeg has not measured here, from a sample or its default order, is no
  // "strongest": MM(8,8)'s came from 30 sampled secrets)
  const who = rec.name === "optimal" ? "the best possible guess"
    : h.ranked === false ? `${rec.name}, keypeg's first choice (no exact ranking of the `
      + "strategies ships for this game; the Lab compares them)"
    : `${rec.name}, the strongest strategy here`;
  const why = rec.chance === undefined
    ? `${sentence(who)}; it leaves at most ${count(rec.largest_part, "code")}.`
    : `${sentence(rec.name === "information" ? "information gain: it tells the most about the "
      + "secret, a wrong answer allowed for" : who)}; it is the secret with ${percent(rec.chance)} chance.`;
  box.replaceChildren(...[
    el("span", { class: "rec-label", text: "Recommended next guess" }),
    el("span", { class: "rec-guess" }, codeEl(rec.guess), el("span", { class: "code-text", text: rec.guess }),
      useButton(rec.guess, "use-recommended")),
    el("span", { class: "rec-why", id: "hint-rec-why", text: why }),
    h.optimal ? null : el("span", { class: "rec-note", id: "hint-optimal-note",
      "data-testid": "hint-optimal-note", text: optimalMissing(h.optimal_note) }),
    // the best guess found (in time, or from the candidates alone); a longer search
    h.optimal || !(h.optimal_longer || h.best_found) ? null : el("span", { class: "rec-longer", id: "hint-longer" },
        h.best_found ? useButton(h.best_found.guess, "use-best-found", `Use ${h.best_found.guess}`)
          : null,
        h.optimal_longer ? el("button", { type: "button", class: "button small",
          id: "hint-search-longer", text: `Search longer (up to ${LONGER_SECONDS} s)`,
          title: "Keep looking for the best possible guess, and prove it",
          onclick: searchLonger }) : null),
  ].filter(Boolean));
}

/* ------------------------------------------------------------------ a longer search */
const LONGER_SECONDS = 60;  // the server's most (MM(6,9)'s hardest positions take 30-40 s)

/** Ask the server to keep looking for the optimal guess (the hint gave up after its
 * second), and show what it finds: the optimal guess, or the best one found by then. An
 * answer for a position the panel has left is dropped. */
async function searchLonger() {
  const s = seq;
  const box = $("#hint-longer");
  const history = current().history();
  box.dataset.state = "searching";
  const status = el("span", { class: "rec-note", id: "hint-longer-text", role: "status" });
  const started = Date.now();
  const tick = () => {
    const elapsed = Math.floor((Date.now() - started) / 1000);
    status.textContent = `Looking for the best possible guess (up to ${LONGER_SECONDS} s)… `
      + `${elapsed} s`;
  };
  tick();
  const timer = setInterval(tick, 1000);
  box.replaceChildren(status);
  try {
    const out = await api.optimal(S.rules.name, history, LONGER_SECONDS);
    if (s !== seq) return;
    const found = out.optimal ? out.optimal.guess : (out.best_found ? out.best_found.guess : null);
    const text = out.optimal
      ? `The best possible guess is ${out.optimal.guess} (found and proven in ${out.seconds.toFixed(1)} s).`
      : sentence(out.optimal_note || "the best possible guess was not found in time.");
    box.dataset.state = out.optimal ? "found" : "not-proven";
    box.dataset.guess = found || "";
    box.replaceChildren(...[el("span", { class: "rec-note", id: "hint-longer-text", text }),
      found ? useButton(found, "use-longer", `Use ${found}`) : null].filter(Boolean));
  } catch (err) {
    if (s !== seq) return;
    box.dataset.state = "error";
    box.replaceChildren(el("span", { class: "rec-note", id: "hint-longer-text",
      text: sentence(err.detail || String(err)) }));
  } finally {
    clearInterval(timer);
  }
}

function renderStrategies(h) {
  const rec = recommendation(h);
  const rows = ordered(h);
  if (h.optimal && !rows.some((s) => s.name === "optimal")) rows.unshift(h.optimal);
  const body = $("#hint-strategies tbody");
  body.replaceChildren(...rows.map((s) => {
    const mine = rec && s.name === rec.name;
    return el("tr", { "data-strategy": s.name, "data-guess": s.guess, "data-largest": s.largest_part,
      "data-possible": String(s.possible), class: mine ? "recommended" : null },
    el("td", { class: "strat-name", title: strategyInfo(s.name) }, s.name,
      mine ? el("span", { class: "tag rec", text: "recommended" }) : null),
    el("td", { class: "strat-guess" }, codeWithText(s.guess),
      s.possible ? null : el("span", { class: "tag", title: "cannot be the secret, but splits the codes well", text: "probe" })),
    el("td", { class: "num", text: fmt(s.largest_part) }),
    el("td", { class: "use-cell" }, useButton(s.guess)));
  }));
  $("#hint-strategies-box").hidden = !rows.length || h.solved;
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
  $("#hint-approx").hidden = !h.approximate;
  const note = $("#hint-note");
  note.hidden = !h.note;
  note.textContent = h.note ? sentence(h.note) : "";
  renderRecommended(h);
  renderLikely(h);
  renderList(h);
  renderStrategies(h);
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
  $("#hint-approx").hidden = true;
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
