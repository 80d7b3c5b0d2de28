/* Drawing codes and answers: pegs or digit tiles, board rows with key pegs or coloured
 * marks, the small answer labels of the cut bars, and the colour palette. */

import { el } from "./dom.js";
import { N } from "./state.js";

/** One symbol: a coloured peg (its colour from the preset's colour names) or a digit tile. */
export function symbolEl(sym, extra = "") {
  const n = N();
  if (n.digits) {
    return el("span", { class: `digit ${extra}`, "data-symbol": sym, text: sym });
  }
  if (sym === n.blank) {
    return el("span", { class: `peg blank ${extra}`, "data-symbol": sym, title: "blank" });
  }
  const color = n.colorName(sym);
  const node = el("span", { class: `peg ${extra}`, "data-symbol": sym, "data-color": color,
    title: n.symbolName(sym), text: sym });
  if (!color) {
    // a colour without a name: a dark hue, so that white text stays readable on it
    const i = n.symbols.indexOf(sym);
    node.style.background = `hsl(${(i * 47) % 360} 60% 28%)`;
    node.style.color = "#fff";
  }
  return node;
}

export function codeEl(code, extra = "") {
  return el("span", { class: `code ${extra}`, "data-code": code, title: code },
    [...code].map((s) => symbolEl(s)));
}

/** A code drawn and written: pegs, then the text (hidden for digit games, where the tiles
 * are the text). */
export function codeWithText(code) {
  return el("span", { class: "code-with-text" }, codeEl(code, "mini"),
    el("span", { class: "code-text", text: code }));
}

export function keyPegsEl(black, white, small = false) {
  const n = N();
  const words = n.words(n.format([black, white]));
  const box = el("span", { class: `keys keys-${n.pegs}${small ? " small" : ""}`,
    role: "img", "aria-label": words, title: words });
  for (let i = 0; i < n.pegs; i++) {
    const kind = i < black ? "black" : i < black + white ? "white" : "empty";
    box.append(el("span", { class: `key ${kind}` }));
  }
  return box;
}

/** A board row: the guess, and its answer as coloured cells, or key pegs and words. */
export function rowEl(guess, feedback, index, extra = "") {
  const n = N();
  const row = el("div", { class: `row ${extra}`, "data-index": index, "data-guess": guess,
    "data-feedback": feedback, title: `${guess}: ${n.words(feedback)}` });
  row.append(el("span", { class: "row-num", text: String(index + 1) }));
  const cells = el("span", { class: "cells" });
  if (n.positional) {
    const marks = n.parse(feedback);
    [...guess].forEach((s, i) => {
      const m = marks[i] ?? 0;
      cells.append(el("span", { class: `cell mark-${n.markClass(m)}`, "data-mark": n.markChar(m),
        title: `${n.symbolName(s)}: ${n.markWord(m)}` }, symbolEl(s)));
    });
    row.append(cells);
    return row;
  }
  [...guess].forEach((s) => cells.append(el("span", { class: "cell" }, symbolEl(s))));
  row.append(cells);
  const [b, w] = n.parse(feedback);
  if (n.keyPegs) row.append(keyPegsEl(b, w));
  row.append(el("span", { class: "fb-text", text: n.words(feedback) }));
  return row;
}

export function emptyRowEl(index) {
  const n = N();
  const row = el("div", { class: "row empty", "data-index": index, "aria-hidden": "true" });
  row.append(el("span", { class: "row-num", text: String(index + 1) }));
  const cells = el("span", { class: "cells" });
  for (let i = 0; i < n.pegs; i++) {
    cells.append(el("span", { class: "cell" }, el("span", { class: "hole" })));
  }
  row.append(cells);
  if (n.keyPegs) row.append(keyPegsEl(0, 0));
  return row;
}

/** The answer of a cut bar: small marks or key pegs, and the answer in words. */
export function feedbackLabelEl(feedback) {
  const n = N();
  const box = el("span", { class: "fb-label" });
  if (n.positional) {
    box.append(el("span", { class: "mini-marks", role: "img", "aria-label": n.words(feedback) },
      n.parse(feedback).map((m) => el("span", { class: `mini-mark mark-${n.markClass(m)}` }))));
  } else {
    if (n.keyPegs) {
      const [b, w] = n.parse(feedback);
      box.append(keyPegsEl(b, w, true));
    }
    box.append(el("span", { class: "fb-label-text", text: n.words(feedback) }));
  }
  return box;
}

/** The palette: one button per symbol, ids `${prefix}-${symbol}`. */
export function paletteButtons(prefix, onPick) {
  const n = N();
  const syms = n.blanks ? [...n.symbols, n.blank] : n.symbols;
  return syms.map((s) => {
    const letter = n.letter(s);
    const key = letter ? `${s} or ${letter}` : s === n.blank ? "_" : s;
    return el("button", { type: "button", class: "palette-btn", id: `${prefix}-${s}`,
      "data-symbol": s, "aria-label": `Add ${n.symbolName(s)}`,
      title: `${n.symbolName(s)} (key ${key})`, onclick: () => onPick(s) }, symbolEl(s));
  });
}

/** A legend for the marks of positional answers. */
export function marksLegend() {
  const n = N();
  return el("span", { class: "marks-legend" }, [2, 1, 0].map((m) => el("span", { class: "legend-item" },
    el("span", { class: `mini-mark mark-${n.markClass(m)}` }), n.markWord(m))));
}

/** Show the marks' legend in `box` under positional rules (what green, amber and gray
 * mean); hide it under others, whose key pegs or words say it. */
export function boardLegend(box) {
  const positional = N().positional;
  box.hidden = !positional;
  box.replaceChildren(...(positional ? [marksLegend()] : []));
}

/** Fill the two menus of a black/white answer (0 to `pegs` each). A white count that the
 * black count chosen makes impossible (more pegs than the code has, or a single white
 * beside pegs - 1 blacks) is greyed out, and choosing a black count lowers a white count
 * it makes impossible to the most it allows. */
export function answerMenus(black, white, pegs) {
  const opts = () => Array.from({ length: pegs + 1 }, (_, i) => el("option", { value: i, text: String(i) }));
  black.replaceChildren(...opts());
  white.replaceChildren(...opts());
  black.onchange = () => fitWhites(black, white, pegs);
  fitWhites(black, white, pegs);
}

/** Grey out the white counts impossible beside the black count chosen (see
 * `answerMenus`), lowering the one chosen if it is one of them. */
export function fitWhites(black, white, pegs) {
  const b = Number(black.value);
  const possible = (w) => b + w <= pegs && !(b === pegs - 1 && w === 1);
  for (const o of white.options) o.disabled = !possible(Number(o.value));
  if (!possible(Number(white.value))) white.value = String(b === pegs - 1 ? 0 : pegs - b);
}
