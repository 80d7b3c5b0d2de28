/* Tolerating mistakes in Assist: the noise model the page sends, the switch that turns it
 * on (remembered in localStorage), and what the hints show under it: the likeliest
 * secrets with their probabilities, and for each clue how likely it was misreported. */

import { codeEl } from "./board.js";
import { $, el, store } from "./dom.js";
import { current } from "./state.js";

const KEY = "keypeg.tolerate";
/** Every answer is right with probability 95%, else one of the other answers. */
export const NOISE = "symmetric:0.05";
/** Secrets listed as the likeliest. */
const SHOWN = 6;

export const tolerant = () => store.get(KEY) === "on";
export const setTolerant = (on) => store.set(KEY, on ? "on" : "off");

/** The belief Assist sends with its requests: the noise model when the switch is on. */
export const assistBelief = () => (tolerant() ? { noise: NOISE } : {});

/** A probability for people: "93%", "under 1%", "over 99%". */
export function percent(p) {
  if (p > 0 && p < 0.005) return "under 1%";
  if (p < 1 && p >= 0.995) return "over 99%";
  return `${Math.round(100 * p)}%`;
}

/** The index of the clue most likely misreported (the first of equals), or -1. */
export function worstClue(doubts) {
  if (!Array.isArray(doubts) || !doubts.length) return -1;
  return doubts.reduce((best, d, i) => (d > doubts[best] ? i : best), 0);
}

/** What to say about the most doubtful clue, in one sentence (clues as doubtful as it
 * named together: three clues at 35% each had named the first alone). */
export function suspectSentence(doubts, clues) {
  const i = worstClue(doubts);
  if (i < 0 || !clues[i]) return "";
  const d = doubts[i];
  const tied = doubts.map((x, j) => j).filter((j) => Math.abs(doubts[j] - d) < 1e-9);
  if (tied.length > 1) {
    const nums = tied.map((j) => String(j + 1));
    const names = `Clues ${nums.slice(0, -1).join(", ")} and ${nums[nums.length - 1]}`;
    if (d >= 0.5) return `${names} are each probably wrong: ${percent(d)} each.`;
    if (d >= 0.2) return `${names} may each be wrong: ${percent(d)} each.`;
    return `No clue looks wrong: the most doubtful, clues ${names.slice(6)}, are each wrong with ${percent(d)} chance.`;
  }
  const name = `Clue ${i + 1} (${clues[i].guess} → ${clues[i].feedback})`;
  if (d >= 0.5) return `${name} is probably wrong: ${percent(d)}.`;
  if (d >= 0.2) return `${name} may be wrong: ${percent(d)}.`;
  return `No clue looks wrong: the most doubtful, clue ${i + 1}, is wrong with ${percent(d)} chance.`;
}

/** A clue's doubt: a small bar and its percentage. */
export function doubtEl(d, worst) {
  const pct = percent(d);
  return el("span", { class: `doubt${worst ? " worst" : ""}`, "data-doubt": String(d),
    title: `${pct} likely to have been answered wrongly` },
  el("span", { class: "doubt-track", "aria-hidden": "true" },
    el("span", { class: "doubt-fill", style: `width:${Math.max(2, 100 * d).toFixed(1)}%` })),
  el("span", { class: "doubt-text", text: `${pct} wrong` }));
}

/** The likeliest secrets (hints under a belief), or nothing. */
export function renderLikely(h) {
  const box = $("#hint-likely");
  const likely = Array.isArray(h.likely) && !h.solved ? h.likely.slice(0, SHOWN) : [];
  box.hidden = !likely.length;
  if (!likely.length) {
    box.replaceChildren();
    return;
  }
  const top = likely[0].probability || 1;
  box.replaceChildren(
    el("h3", { text: "Most likely secrets" }),
    el("ol", { class: "likely-list" }, likely.map((c) => el("li", { class: "likely",
      "data-code": c.code, "data-probability": String(c.probability) },
    el("button", { type: "button", class: "chip", title: `Use ${c.code}`, "aria-label": `Use ${c.code}`,
      onclick: () => current().use(c.code) }, codeEl(c.code, "mini")),
    el("span", { class: "code-text", text: c.code }),
    el("span", { class: "bar-track", "aria-hidden": "true" }, el("span", { class: "bar",
      style: `width:${Math.max(2, (100 * c.probability) / top).toFixed(1)}%` })),
    el("span", { class: "num", text: percent(c.probability) })))),
  );
}
