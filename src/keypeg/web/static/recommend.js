/* The hints panel's recommendation and strategy table (hints.js draws the rest): the guess
 * keypeg recommends and why, each strategy's guess strongest first, and a longer search
 * for the best possible guess when the hint's second was not enough, whose proven guess
 * then becomes the recommendation. */

import { codeEl, codeWithText } from "./board.js";
import { $, count, el, fmt, sentence, technical } from "./dom.js";
import { percent } from "./belief.js";
import { S, current } from "./state.js";
import * as api from "./api.js";

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

export const strategyInfo = (name) => STRATEGY_INFO[name] || "";

/** The hint on the panel (a longer search's proven guess updates it). */
let shown = null;
/** Bumped whenever the panel asks for another position: a longer search's answer for the
 * position it left is dropped. */
let stamp = 0;
export const panelMoved = () => { stamp += 1; };

/** Draw the recommendation and the strategy table of hint `h`. */
export function showRecommendation(h) {
  shown = h;
  renderRecommended(h);
  renderStrategies(h);
}

/** The strategies, strongest first (the server orders them). */
export const ordered = (h) => (h.strategies || []).slice();

/** The guess keypeg recommends: the server's pick, else the optimal, else the strongest. */
export function recommendation(h) {
  if (h.recommended !== undefined) return h.recommended;
  return h.optimal || ordered(h)[0] || null;
}

/** The badge on a guess chosen among sampled codes: on that guess alone (the panel's
 * head had worn it, over the exact counts, the exact rows and the cut). */
const approxBadge = (s) => (s && s.sampled ? el("span", { class: "badge approx",
  title: "chosen among guesses picked at random: too many codes to score every one",
  text: "approximate" }) : null);

export const useButton = (code, id = null, text = "Use") => el("button", { type: "button", id,
  class: "button small use", "data-use": code, title: `Write ${code} as your next guess`,
  onclick: () => current().use(code), text });

/** Why there is no optimal guess, in a player's words (never a table size). */
function optimalMissing(note) {
  if (note && !technical(note)) return sentence(note);
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
    el("span", { class: "rec-label" }, "Recommended next guess", approxBadge(rec)),
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
  const s = stamp;
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
    if (s !== stamp) return;
    const found = out.optimal ? out.optimal.guess : (out.best_found ? out.best_found.guess : null);
    const text = out.optimal
      ? `The best possible guess is ${out.optimal.guess} (found and proven in ${out.seconds.toFixed(1)} s).`
      : sentence(out.optimal_note || "the best possible guess was not found in time.");
    let where = box;
    if (out.optimal && shown) {
      // proven: it is the recommendation now, and the table's optimal row (the panel had
      // gone on recommending the strongest strategy's guess beside "the best possible
      // guess is ...")
      shown = { ...shown, optimal: out.optimal, recommended: out.optimal, optimal_note: null,
        best_found: null, optimal_longer: false };
      renderRecommended(shown);
      renderStrategies(shown);
      where = el("span", { class: "rec-longer", id: "hint-longer" });
      $("#hint-recommended").append(where);
    }
    where.dataset.state = out.optimal ? "found" : "not-proven";
    where.dataset.guess = found || "";
    where.replaceChildren(...[el("span", { class: "rec-note", id: "hint-longer-text", text }),
      found ? useButton(found, "use-longer", `Use ${found}`) : null].filter(Boolean));
  } catch (err) {
    if (s !== stamp) return;
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
      s.possible ? null : el("span", { class: "tag", title: "cannot be the secret, but splits the codes well", text: "probe" }),
      approxBadge(s)),
    el("td", { class: "num", text: fmt(s.largest_part) }),
    el("td", { class: "use-cell" }, useButton(s.guess)));
  }));
  $("#hint-strategies-box").hidden = !rows.length || h.solved;
}

