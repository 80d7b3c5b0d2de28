/* The Match mode's state and the words about its players, shared by its modules: the
 * match's view from the server, what the page is doing with it, and the one way a move is
 * sent (`send`). match.js sets the hooks `render` and `renderControls`. */

import { clearMessage, reportError, store } from "./dom.js";
import * as api from "./api.js";

export const KEY = "keypeg.match";

export const M = {
  view: null, // the match's view from the server, or null on the start screen
  other: null, // a stored match under other rules (offered on the start screen)
  loaded: false, // the stored match was looked up for the current rules
  busy: false,
  loading: false, // the stored match is being looked up
  events: [], // outcome sentences of the games that ended in the last move
  ack: "", // the hand-over screen passed: "maker:N" (before the secret of game N)
  handover: "", // "breaker:N": the secret of game N was set; the device goes to the breaker
  conflict: [], // board rows (from 0) a refused answer conflicts with
  marks: [], // the marks of a hand answer in positional games
  seq: 0,
  guessEntry: null,
  secretEntry: null,
  render: () => {},
  renderControls: () => {},
};

/* ------------------------------------------------------------------ words */
export const nameOf = (v, side) => v.players[side].name;
export const isPerson = (v, side) => v.players[side].kind === "person";
export const twoPeople = (v) => isPerson(v, "A") && isPerson(v, "B");
export const isYou = (name) => name.trim().toLowerCase() === "you";
/** "you break", "Ada breaks". */
export const says = (name, verb) => `${name} ${isYou(name) ? verb.replace(/s$/, "") : verb}`;
/** "your", "Ada's". */
export const whose = (name) => (isYou(name) ? "your" : `${name}'s`);
export const inPlay = (v) => (v.current ? v.played[v.current - 1] : null);
export const lastOver = (v) => [...v.played].reverse().find((g) => g.over) || null;

/** Whether the hand-over screen is due: two people, before a secret is chosen (the
 * breaker looks away) and after it (the device goes back to the breaker). */
export function handoverDue(v) {
  if (!v || v.over || !twoPeople(v)) return false;
  if (M.handover === `breaker:${v.current}` && v.phase === "guess") return true;
  return v.phase === "secret" && M.ack !== `maker:${v.current}`;
}

export const storedId = () => store.get(KEY, "") || "";

/** A move's answer: the new view, and the outcome of each game it ended. */
export function apply(view) {
  M.view = view;
  M.events = view.events || [];
  store.set(KEY, view.id);
  M.render();
}

/** Run a move; true once its answer is shown. A 409 (out of turn, or changed in another
 * window) reloads the match; an error is shown as a message, except a 422 when `own422`
 * (the caller shows it next to its form). */
export async function send(what, call, { own422 = false } = {}) {
  if (M.busy || !M.view) return false;
  const id = M.view.id;
  M.busy = true;
  clearMessage();
  M.render();
  try {
    const view = await call(id);
    M.busy = false;
    if (!M.view || M.view.id !== id) return false;
    apply(view);
    return true;
  } catch (err) {
    M.busy = false;
    if (err.status === 409 && M.view && M.view.id === id) {
      try {
        M.view = await api.match(id);
        M.events = [];
      } catch (_) {
        /* keep what we have */
      }
    }
    M.render();
    if (!(own422 && err.status === 422)) reportError(err, what);
    throw err;
  }
}
