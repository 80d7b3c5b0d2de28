/* Assist: the clues of a game played on a real board; the hints panel shows what is still
 * possible and what to play next. Contradictory clues are kept and the suspects outlined,
 * so the wrong one can be edited. With "Tolerate mistakes" on (belief.js) a wrong clue
 * does not block the game: each clue shows how likely it is to be wrong. The clues of each
 * rules preset are kept in localStorage, so a reload (or coming back to the rules) keeps them. */

import * as api from "./api.js";
import { assistBelief, doubtEl, setTolerant, suspectSentence, tolerant, worstClue } from "./belief.js";
import { answerMenus, fitWhites, marksLegend, rowEl, symbolEl } from "./board.js";
import { refreshCut, resetCut } from "./cut.js";
import { $, clearMessage, count, el, plural, reportError, sentence, store } from "./dom.js";
import { CodeEntry } from "./entry.js";
import { refreshHints } from "./hints.js";
import { N, S, modes } from "./state.js";

const A = { clues: [], editing: null, marks: [], conflict: [], suspects: [], corrections: {},
  doubts: null, queue: Promise.resolve(), gen: 0 };
let entry = null;

export function setupAssist() {
  entry = new CodeEntry({
    input: $("#assist-guess"), palette: $("#assist-palette"), note: $("#assist-note"),
    prefix: "assist-palette",
    onChange: () => {
      renderMarks();
      refreshCut();
    },
    onEnter: add,
  });
  $("#assist-add").addEventListener("click", add);
  $("#assist-cancel").addEventListener("click", () => {
    A.editing = null;
    setForm();
    renderClues();
    refreshCut();
  });
  const toggle = $("#assist-tolerate");
  toggle.checked = tolerant();
  toggle.addEventListener("change", () => {
    setTolerant(toggle.checked);
    clearMessage();
    setDoubts(null);
    resetCut();
    refreshHints().then(refreshCut);
  });
  $("#assist-clear").addEventListener("click", () => {
    // (every clue copied from a board would go, and the empty list is saved)
    if (A.clues.length && !window.confirm(
      `Clear ${A.clues.length === 1 ? "the clue" : `all ${count(A.clues.length, "clue")}`}? They cannot be brought back.`)) return;
    clearMessage();
    reset([]);
    saveClues();
    resetCut();
    refreshHints();
  });
  modes.assist = {
    enter: () => {},
    reset: () => {
      const had = A.clues.length > 0;
      reset();
      return had;
    },
    history,
    composed: () => entry.code,
    use: (code) => {
      entry.set(code);
      $("#assist-guess").focus({ preventScroll: true });
      $("#assist-guess").scrollIntoView({ block: "nearest" });
    },
    belief: assistBelief,
    fetchHints: (h) => api.hints(S.rules.name, h, assistBelief()),
    hintsOk: (h) => {
      setError(null);
      setDoubts(tolerant() && h && Array.isArray(h.doubts) ? h.doubts : null);
    },
    hintsFailed: (err) => {
      if (!isContradiction(err)) return false;
      setError(err);
      return true;
    },
  };
}

const history = () => A.clues.map((c) => [c.guess, c.feedback]);

/** Where the clues of the selected rules are kept. */
const cluesKey = () => `keypeg.assist.${S.rules.name}`;
const saveClues = () => store.set(cluesKey(), JSON.stringify(history()));

function storedClues() {
  let list = [];
  try {
    list = JSON.parse(store.get(cluesKey(), "[]"));
  } catch (_) {
    /* not ours: no clues */
  }
  return (Array.isArray(list) ? list : []).filter((c) => Array.isArray(c) && c.length === 2
    && c.every((t) => typeof t === "string")).map(([guess, feedback]) => ({ guess, feedback }));
}

const isContradiction = (err) => err && err.status === 422
  && (err.body.error === "contradiction" || /^no code fits these clues/i.test(err.detail || ""));

/** New rules: a new form (black/white counts or per-peg marks, the palette), and the
 * clues kept for these rules (or `clues`). */
function reset(clues = storedClues()) {
  const n = N();
  A.clues = clues;
  A.editing = null;
  A.gen += 1;
  entry.rebuild();
  $("#assist-bw").hidden = n.positional;
  $("#assist-pos").hidden = !n.positional;
  $("#assist-black-label").textContent = sentence(n.term("black", 2));
  $("#assist-white-label").textContent = sentence(n.term("white", 2));
  answerMenus($("#assist-black"), $("#assist-white"), n.pegs);
  $("#assist-marks-legend").replaceChildren(marksLegend());
  setError(null);
  setDoubts(null);
  setForm();
}

function renderMarks() {
  const n = N();
  const guess = entry.code;
  $("#assist-marks").replaceChildren(...A.marks.map((m, i) => el("button", {
    type: "button", id: `assist-mark-${i}`, class: `cell mark-${n.markClass(m)}`,
    "data-mark": n.markChar(m), "data-pos": i, "aria-label": `Peg ${i + 1}: ${n.markWord(m)}`,
    title: `Peg ${i + 1}: ${n.markWord(m)} (click to change)`,
    onclick: () => {
      A.marks[i] = (A.marks[i] + 1) % 3;
      renderMarks();
    } }, guess[i] ? symbolEl(guess[i]) : el("span", { class: "hole" }))));
}

function formFeedback() {
  const n = N();
  if (n.positional) return n.format(A.marks);
  return n.format([Number($("#assist-black").value), Number($("#assist-white").value)]);
}

function setForm(guess = "", feedback = null) {
  const n = N();
  entry.set(guess, { quiet: true });
  if (n.positional) {
    A.marks = feedback ? n.parse(feedback) : Array(n.pegs).fill(0);
  } else {
    const [b, w] = feedback ? n.parse(feedback) : [0, 0];
    $("#assist-black").value = String(b);
    $("#assist-white").value = String(w);
    fitWhites($("#assist-black"), $("#assist-white"), n.pegs);
  }
  renderMarks();
}

/** A contradiction in one sentence for a player: no code fits, and what to do (the
 * server's diagnosis had been shown whole: two hundred words ending "and so on"). */
function errorSentence(suspects) {
  const nums = suspects.map((i) => i + 1);
  const start = "No code fits all of these clues";
  if (!nums.length) {
    return `${start}, and no single wrong clue explains it: check each clue against your board and edit or remove the wrong ones.`;
  }
  if (nums.length === 1) {
    return `${start}: clue ${nums[0]} is probably wrong, so check it against your board and edit or remove it.`;
  }
  const list = `${nums.slice(0, -1).join(", ")} and ${nums[nums.length - 1]}`;
  return `${start}: one of clues ${list} (outlined below) is probably wrong, so check them against your board and edit or remove the wrong one.`;
}

/** Show a contradiction (or clear it with null): one sentence, the suspects outlined. */
function setError(err) {
  const box = $("#assist-error");
  A.conflict = err ? (err.body.conflict || []).map((i) => i - 1) : [];
  A.suspects = err ? (err.body.suspects || []).map((i) => i - 1) : [];
  A.corrections = err ? err.body.corrections || {} : {};
  box.hidden = !err;
  box.replaceChildren(...(err ? [el("span", { id: "assist-error-text",
    "data-testid": "assist-error-text", text: errorSentence(A.suspects) })] : []));
  renderClues();
}

/** Show how likely each clue is to be wrong (null: no doubts to show). */
function setDoubts(doubts) {
  A.doubts = doubts && doubts.length === A.clues.length ? doubts : null;
  const box = $("#assist-suspect");
  const text = A.doubts ? suspectSentence(A.doubts, A.clues) : "";
  const worst = A.doubts ? worstClue(A.doubts) : -1;
  box.hidden = !text;
  box.textContent = text;
  box.dataset.clue = worst >= 0 ? String(worst + 1) : "";
  box.dataset.level = worst >= 0 && A.doubts[worst] >= 0.5 ? "wrong" : "fine";
  renderClues();
}

function renderClues() {
  const n = N();
  const worst = A.doubts ? worstClue(A.doubts) : -1;
  $("#assist-clues").replaceChildren(...A.clues.map((c, i) => {
    const suspect = A.suspects.includes(i);
    const doubted = worst === i && A.doubts[i] >= 0.5;
    const cls = ["clue", suspect ? "suspect" : "", A.conflict.includes(i) ? "conflict" : "",
      doubted ? "doubted" : "", A.editing === i ? "editing" : ""].filter(Boolean).join(" ");
    return el("li", { class: cls, "data-index": i, "data-guess": c.guess, "data-feedback": c.feedback },
      rowEl(c.guess, c.feedback, i),
      el("span", { class: "clue-actions" },
        A.doubts ? doubtEl(A.doubts[i], doubted) : null,
        suspect ? el("span", { class: "tag warn", text: "suspect", title: (A.corrections[i + 1] || [])
          .length ? `it could have been ${A.corrections[i + 1].map((f) => n.words(f)).join(" or ")}` : null }) : null,
        el("button", { type: "button", class: "button small ghost", id: `assist-edit-${i}`,
          "aria-label": `Edit clue ${i + 1}`, onclick: () => edit(i), text: "Edit" }),
        el("button", { type: "button", class: "button small ghost danger", id: `assist-remove-${i}`,
          "aria-label": `Remove clue ${i + 1}`, onclick: () => remove(i), text: "Remove" })));
  }));
  $("#assist-clues").dataset.count = String(A.clues.length);
  $("#assist-clues-title").textContent = A.clues.length
    ? `${count(A.clues.length, "clue")} so far (${n.positional ? "marks" : `${plural(n.terms.black, 2)} and ${plural(n.terms.white, 2)}`})`
    : "No clues yet.";
  $("#assist-add").textContent = A.editing === null ? "Add clue" : `Update clue ${A.editing + 1}`;
  $("#assist-cancel").hidden = A.editing === null;
}

/** Add (or update) the clue in the form. The form is read at once; the check waits for
 * the clue before it, so quick clicks add every clue, in order. */
function add() {
  const n = N();
  const guess = entry.code;
  if (guess.length !== n.pegs) {
    entry.reject(`a clue's guess needs ${count(n.pegs, n.digits ? "digit" : "peg")}; this one has ${guess.length}.`);
    return Promise.resolve();
  }
  const clue = { guess, feedback: formFeedback() };
  const editing = A.editing;
  const gen = A.gen;
  A.editing = null;
  setForm();
  renderClues();
  entry.focus();
  A.queue = A.queue.then(() => check(clue, editing, gen));
  return A.queue;
}

async function check(clue, editing, gen) {
  if (gen !== A.gen) return; // the clues were cleared (or the rules changed) meanwhile
  const clues = A.clues.slice();
  if (editing !== null && editing < clues.length) clues[editing] = clue;
  else clues.push(clue);
  let answer; // the hints of the new clues: shown as they are, not asked for twice
  try {
    // A malformed clue is refused; a contradiction is kept so the wrong clue can be found.
    const h = await api.hints(S.rules.name, clues.map((c) => [c.guess, c.feedback]), assistBelief());
    answer = () => h;
  } catch (err) {
    if (gen !== A.gen) return;
    if (!isContradiction(err)) {
      reportError(err, `clue ${clue.guess}=${clue.feedback} not added`);
      if (!entry.code) setForm(clue.guess, clue.feedback); // give it back to fix
      return;
    }
    answer = () => Promise.reject(err);
  }
  if (gen !== A.gen) return;
  clearMessage();
  A.clues = clues;
  saveClues();
  setDoubts(null); // until the hints for the new clues say
  resetCut();
  await refreshHints(answer);
}

function edit(i) {
  A.editing = i;
  setForm(A.clues[i].guess, A.clues[i].feedback);
  renderClues();
  $("#assist-guess").focus({ preventScroll: true });
  refreshCut();
}

function remove(i) {
  A.clues.splice(i, 1);
  saveClues();
  A.doubts = null;
  $("#assist-suspect").hidden = true;
  if (A.editing === i) {
    A.editing = null;
    setForm();
  } else if (A.editing !== null && A.editing > i) {
    A.editing -= 1;
  }
  renderClues();
  refreshHints();
}
