/* How codes and answers are written and said under one rules preset, built from what
 * /api/rules sends: the symbols in order, the colour letters and names, whether symbols may
 * repeat, and what the key pegs are called (black/white, or bull/cow).
 *
 * The characters of an answer's text ("2B1W", "GA--A") are the server's notation: it sends
 * them as `notation` when it can; until then the defaults below are the server's. */

import { count, plural, sentence } from "./dom.js";

const DEFAULT_CHARS = { black: "B", white: "W", gray: "-", amber: "A", green: "G", blank: "_" };
const MARK_KEYS = ["gray", "amber", "green"]; // mark 0, 1, 2
const MARK_WORDS = ["gray: not in the code", "amber: in the code, elsewhere",
  "green: right place"];
/** Characters that only separate pegs ("1 2 3 4", "1-2-3-4", "R,G,B,Y"), unless a symbol. */
const SEPARATOR = /^[\s,;\-–—/|]$/;
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class Notation {
  constructor(preset) {
    this.preset = preset;
    this.name = preset.name;
    this.pegs = preset.pegs;
    this.symbols = [...preset.symbols];
    this.digits = Boolean(preset.digits);
    this.repeats = preset.repeats !== false;
    this.blanks = Boolean(preset.blanks);
    this.positional = preset.feedback === "positional";
    this.letters = Array.isArray(preset.letters) ? preset.letters.map((l) => l.toUpperCase()) : null;
    this.names = Array.isArray(preset.names) ? preset.names : null;
    this.terms = { black: "black", white: "white", ...(preset.terms || {}) };
    this.chars = { ...DEFAULT_CHARS, ...(preset.notation || {}) };
    this.kind = this.digits ? "digit" : "colour";
    const b = esc(this.chars.black);
    const w = esc(this.chars.white);
    this.bwPattern = new RegExp(`^(\\d+)\\s*${b}\\s*(?:(\\d+)\\s*${w})?$|^()(\\d+)\\s*${w}$`, "i");
  }

  /* ---------------------------------------------------------------- symbols */
  get blank() {
    return this.chars.blank;
  }

  /** Map one typed character to a symbol of the rules, or null. */
  toSymbol(ch) {
    const up = ch.toUpperCase();
    if (this.blanks && (ch === this.blank || ch === "." || (ch === "0" && !this.digits))) {
      return this.blank;
    }
    if (this.letters) {
      const i = this.letters.indexOf(up);
      if (i >= 0) return this.symbols[i] ?? null;
    }
    return this.symbols.includes(up) ? up : null;
  }

  /** Whether `sym` may be added to `code`: {sym} when it may, else {reason} in words. */
  accept(code, ch) {
    const sym = this.toSymbol(ch);
    if (sym === null) {
      const shown = ch === " " ? "a space" : `"${ch}"`;
      return { reason: `${shown} is not a ${this.kind} of these rules: ${this.choices()}.` };
    }
    if (code.length >= this.pegs) {
      return { reason: `a code has ${count(this.pegs, this.digits ? "digit" : "peg")} and this one is full: press Enter to play it or Backspace to change it.` };
    }
    if (!this.repeats && sym !== this.blank && code.includes(sym)) {
      return { reason: `${this.symbolName(sym)} is already in this code: each ${this.kind} can be used only once here.` };
    }
    return { sym };
  }

  /** Whether `ch` only separates pegs (and is no symbol of these rules): it is skipped. */
  isSeparator(ch) {
    return SEPARATOR.test(ch) && this.toSymbol(ch) === null;
  }

  /** Read a typed text into a code, skipping separators: {code, rejected: [reason, ...]}. */
  read(text) {
    let code = "";
    const rejected = [];
    for (const ch of text) {
      if (this.isSeparator(ch)) continue;
      const r = this.accept(code, ch);
      if (r.sym !== undefined) code += r.sym;
      else rejected.push(r.reason);
    }
    return { code, rejected };
  }

  /** The code in `text`, dropping what is not a symbol (for pasted or typed secrets). */
  normalize(text) {
    return this.read(text).code;
  }

  /** Whether `sym` can still be added to `code`. */
  canAdd(code, sym) {
    return this.accept(code, sym).sym !== undefined;
  }

  /** "red (1)", "digit 3", "blank". */
  symbolName(sym) {
    if (sym === this.blank) return "blank";
    if (this.digits) return `digit ${sym}`;
    const name = this.colorName(sym);
    return name ? `${name} (${sym})` : `colour ${sym}`;
  }

  colorName(sym) {
    const i = this.symbols.indexOf(sym);
    return this.names && i >= 0 && i < this.names.length ? this.names[i] : null;
  }

  letter(sym) {
    const i = this.symbols.indexOf(sym);
    return this.letters && i >= 0 ? this.letters[i] ?? null : null;
  }

  /** What may be typed, in words. */
  choices() {
    const first = this.symbols[0];
    const last = this.symbols[this.symbols.length - 1];
    let text = `type ${plural(this.kind, 2)} ${first}–${last}`;
    if (this.letters) text += ` or letters ${this.letters.join(" ")}`;
    if (this.blanks) text += ` or ${this.blank} for a blank`;
    return text;
  }

  typingHelp() {
    let help = `${sentence(this.choices())}, or click the palette. Backspace removes, Enter plays.`;
    if (!this.repeats) help += ` Each ${this.kind} at most once.`;
    return help;
  }

  example() {
    return this.symbols.slice(0, this.pegs).join("");
  }

  /* ---------------------------------------------------------------- answers */
  /** [black, white] for black/white answers; one mark per peg (0 gray, 1 amber, 2 green). */
  parse(text) {
    if (this.positional) {
      return [...text].map((c) => {
        const i = MARK_KEYS.findIndex((k) => this.chars[k] === c.toUpperCase());
        return i < 0 ? 0 : i;
      });
    }
    const m = this.bwPattern.exec(text.trim());
    if (!m) return [0, 0];
    return [Number(m[1] || m[3] || 0), Number(m[2] || m[4] || 0)];
  }

  /** The answer text of [black, white] or of a list of marks. */
  format(marks) {
    if (this.positional) return marks.map((m) => this.chars[MARK_KEYS[m]]).join("");
    return `${marks[0]}${this.chars.black}${marks[1]}${this.chars.white}`;
  }

  win() {
    return this.positional ? this.format(Array(this.pegs).fill(2)) : this.format([this.pegs, 0]);
  }

  /** Whether answers are drawn with black and white key pegs (colour games). */
  get keyPegs() {
    return !this.positional && !this.digits;
  }

  /** The name of a key peg, plural when n is not 1: "bull", "cows", "blacks". */
  term(which, n) {
    return plural(this.terms[which], n);
  }

  /** An answer in words: "1 bull, 2 cows", "2 blacks, 0 whites", "2 green, 1 amber, 2 gray". */
  words(text) {
    if (this.positional) {
      const marks = this.parse(text);
      return [2, 1, 0].map((m) => [m, marks.filter((x) => x === m).length])
        .filter(([, n]) => n).map(([m, n]) => `${n} ${MARK_KEYS[m]}`).join(", ");
    }
    const [b, w] = this.parse(text);
    return `${b} ${this.term("black", b)}, ${w} ${this.term("white", w)}`;
  }

  markClass(m) {
    return MARK_KEYS[m];
  }

  markChar(m) {
    return this.chars[MARK_KEYS[m]];
  }

  markWord(m) {
    return MARK_WORDS[m];
  }
}
