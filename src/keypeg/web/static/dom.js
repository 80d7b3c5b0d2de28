/* Small DOM and text helpers shared by every module, and the page's message area. */

export const $ = (sel) => document.querySelector(sel);

/** Build an element: attributes (class, text, on<event>, data-*...) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export const fmt = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : String(n));
export const sentence = (t) => (t ? t.charAt(0).toUpperCase() + t.slice(1) : t);

/** Whether a server's sentence speaks of memory, tables or their sizes (a developer's words,
 * which the page puts in a player's). */
export const technical = (t) =>
  /\b(MB|GB|KB|[KMGT]iB|bytes?|memory|table|KEYPEG_\w+)\b/i.test(t || "");
export const delay = (ms) => new Promise((r) => setTimeout(r, ms));

const IRREGULAR = { guess: "guesses", was: "were", is: "are", leaves: "leave" };

/** The word for n things: plural("code", 1) is "code", plural("code", 2) is "codes". */
export function plural(word, n) {
  if (n === 1) return word;
  if (IRREGULAR[word]) return IRREGULAR[word];
  return /(s|x|ch|sh)$/.test(word) ? `${word}es` : `${word}s`;
}

/** "1 code", "1,296 codes". */
export const count = (n, word) => `${fmt(n)} ${plural(word, n)}`;

/** Local storage that never throws (private windows, storage switched off). */
export const store = {
  get(key, fallback = null) {
    try {
      const v = localStorage.getItem(key);
      return v === null ? fallback : v;
    } catch (_) {
      return fallback;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, value);
    } catch (_) {
      /* the choice lasts for this page only */
    }
  },
};

/** True on devices with a mouse: focusing a text box there does not pop up a keyboard. */
export const finePointer = () => window.matchMedia("(pointer: fine)").matches;

/** Replay a short shake on an element (a refused key, a refused click). */
export function shake(node) {
  if (!node) return;
  node.classList.remove("shake");
  void node.offsetWidth; // restart the animation
  node.classList.add("shake");
}

/* ------------------------------------------------------------------ message area */
export function showMessage(text, kind = "error") {
  const box = $("#message");
  $("#message-text").textContent = sentence(text);
  box.dataset.kind = kind;
  box.hidden = false;
}

export function clearMessage() {
  const box = $("#message");
  box.hidden = true;
  box.dataset.kind = "";
  $("#message-text").textContent = "";
}

/** Show an error: the server's sentence for an API error, else a generic one. */
export function reportError(err, prefix = "") {
  const text = err && err.detail ? err.detail : `unexpected error: ${err && err.message}`;
  if (!(err && err.detail)) console.error(err);
  showMessage(prefix ? `${prefix}: ${text}` : text, "error");
}
