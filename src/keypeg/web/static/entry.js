/* Writing a code: a text box, a palette and (in Play) a row of slots. Every key and click
 * goes through the notation's accept(): a symbol the rules refuse here (not a symbol, a
 * repeat where repeats are not allowed, a full code) is not dropped silently, it shows why
 * next to the box, and the box shakes. */

import { paletteButtons, symbolEl } from "./board.js";
import { el, finePointer, sentence, shake } from "./dom.js";
import { N } from "./state.js";

const NOTE_MS = 4000;

export class CodeEntry {
  /**
   * @param {object} o input (text box), palette (container), slots (container or null),
   *   note (element for refusals), prefix (palette button ids), onChange(code),
   *   onEnter(), locked() (a reason the code cannot change now, or null).
   */
  constructor(o) {
    Object.assign(this, { slots: null, onChange: () => {}, onEnter: () => {}, locked: () => null },
      o);
    this.value = "";
    this.timer = null;
    this.input.addEventListener("keydown", (e) => this.onKey(e));
    this.input.addEventListener("input", () => this.onInput());
  }

  get code() {
    return this.value;
  }

  /** New rules: a new palette, an empty code. */
  rebuild() {
    const n = N();
    this.palette.replaceChildren(...paletteButtons(this.prefix, (s) => this.pick(s)));
    // no maxlength: it would cut a pasted "1 2 3 4" to "1 2 " before its separators go
    this.input.placeholder = `e.g. ${n.example()}`;
    // wide enough for it (MM(8,8)'s "e.g. 12345678" had been cut)
    this.input.style.minWidth = `calc(${this.input.placeholder.length + 1}ch + 22px)`;
    this.clearNote();
    this.set("", { quiet: true });
  }

  /** Replace the code (a hint's guess, a clue to edit); drops what the rules refuse. */
  set(text, { quiet = false } = {}) {
    const code = N().read(text).code;
    const changed = code !== this.value;
    this.value = code;
    if (this.input.value !== code) this.input.value = code;
    this.render();
    if (changed && !quiet) this.onChange(code);
  }

  /** Add one typed character; returns whether it was taken. */
  add(ch) {
    const why = this.locked();
    if (why) {
      this.reject(why);
      return false;
    }
    if (N().isSeparator(ch)) return false; // a space or a dash between pegs: skipped
    const r = N().accept(this.value, ch);
    if (r.reason) {
      this.reject(r.reason);
      return false;
    }
    this.clearNote();
    this.set(this.value + r.sym);
    return true;
  }

  pick(sym) {
    this.add(sym);
    this.focus();
  }

  backspace() {
    if (this.locked()) return;
    this.clearNote();
    this.set(this.value.slice(0, -1));
  }

  focus() {
    // on touch screens focusing the box would pop up the keyboard after every palette tap
    if (finePointer() && !this.input.disabled) this.input.focus({ preventScroll: true });
  }

  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Enter") {
      e.preventDefault();
      this.onEnter();
    } else if (e.key.length === 1) {
      // the page decides what a key writes, so that a refused key can say why
      e.preventDefault();
      this.add(e.key);
    }
  }

  /** Text that arrived without a key we could read (paste, touch keyboards). */
  onInput() {
    const { code, rejected } = N().read(this.input.value);
    if (rejected.length) this.reject(rejected[0]);
    else this.clearNote();
    this.set(code);
  }

  reject(reason) {
    const note = this.note;
    note.textContent = sentence(reason);
    note.hidden = false;
    note.dataset.state = "refused";
    shake(this.slots || this.input);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.clearNote(), NOTE_MS);
  }

  clearNote() {
    clearTimeout(this.timer);
    this.note.hidden = true;
    this.note.textContent = "";
    this.note.dataset.state = "";
  }

  render() {
    const n = N();
    if (!n) return;
    const locked = Boolean(this.locked());
    if (this.slots) {
      const cells = [];
      for (let i = 0; i < n.pegs; i++) {
        const s = this.value[i];
        cells.push(el("span", { class: "cell" }, s ? symbolEl(s) : el("span", { class: "hole" })));
      }
      this.slots.replaceChildren(...cells);
    }
    for (const b of this.palette.querySelectorAll("button")) {
      const free = n.canAdd(this.value, b.dataset.symbol);
      b.disabled = locked || !free;
      b.dataset.used = String(!n.repeats && this.value.includes(b.dataset.symbol));
    }
  }
}
