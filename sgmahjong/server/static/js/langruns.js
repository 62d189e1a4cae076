// CJK text the pages show, as it is added and before it is laid out (players' and clubs' names, chat
// lines, the patterns' Chinese names), for two things:
//
// - Marked as Chinese on an English page: each run of CJK characters outside an element already in
//   Chinese is wrapped in <span lang="zh-Hans">, so a screen reader reads it in a Chinese voice.
// - Drawn with the bundled font, on every page: a run whose characters are in a slice of
//   "SGMJ CJK Sans" not yet loaded (fonts/README.md), laid out while the slice is on the way, keeps
//   the system's fallback after it arrived, in Chromium (boxes on a device with no CJK font of its
//   own: docs/delivery.md), even set again. Such a run is wrapped in a <span> of its own (on a 中文
//   page without a lang) and kept out of the layout until its slices have loaded (at most
//   FONT_WAIT_MS), so it is first laid out with them.
//
// SVG (the tiles' faces), scripts, styles, a <textarea>, an <option> and the title are left alone.
// Imported by js/i18n.js, so it watches from before any page module sets a text.

const RANGES = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef";
const CJK = new RegExp(`[${RANGES}]+`, "gu");
const ANY = new RegExp(`[${RANGES}]`, "u");
const LEAVE = new Set(["SCRIPT", "STYLE", "TEXTAREA", "OPTION", "TITLE", "NOSCRIPT", "TEMPLATE"]);
const HTML = "http://www.w3.org/1999/xhtml";
/** The bundled text face, as document.fonts.check and .load take it (fonts/fonts.css). */
export const FONT = '16px "SGMJ CJK Sans"';
/** How long a text waits for its faces before it is drawn with what the device has (ms). */
export const FONT_WAIT_MS = 2000;
const CHINESE = "zh-Hans";
// the characters whose faces are known to be loaded: at most the CJK ranges above (about 30,000)
const loaded = new Set();
// the spans this file made (their text is already marked and settled)
const wrappers = new WeakSet();

/** Whether the text of `el` is looked at: an HTML element that holds its text as elements. */
function open(el) {
  return Boolean(el) && el.namespaceURI === HTML && !LEAVE.has(el.tagName) && !el.closest("svg");
}

function inChinese(el) {
  const scope = el.closest("[lang]");
  return Boolean(scope) && scope.lang.toLowerCase().startsWith("zh");
}

/** The CJK characters of `text` whose faces are not known to be loaded. */
function unsettled(text) {
  const fonts = document.fonts;
  if (!fonts || typeof fonts.check !== "function") return "";
  const chars = [...text].filter((ch) => ANY.test(ch) && !loaded.has(ch)).join("");
  if (chars && fonts.check(FONT, chars)) {
    for (const ch of chars) loaded.add(ch);
    return "";
  }
  return chars;
}

/** Keep the wrapper `span` out of the layout until the faces of its characters `chars` have loaded (at
 * most FONT_WAIT_MS), so it is first laid out with them. */
function settle(span, chars) {
  span.style.display = "none";
  let shown = false;
  const show = () => {
    if (shown) return;
    shown = true;
    span.style.removeProperty("display");
  };
  const late = setTimeout(show, FONT_WAIT_MS);
  document.fonts.load(FONT, chars).then(() => {
    for (const ch of chars) loaded.add(ch);
  }, () => {}).finally(() => {
    clearTimeout(late);
    show();
  });
}

/** Mark and settle the text node `node` (see the top of the file). */
function markText(node) {
  const parent = node.parentElement;
  if (!ANY.test(node.data) || !open(parent) || wrappers.has(parent)) return;
  const chinese = inChinese(parent);
  const chars = unsettled(node.data);
  if (chinese && !chars) return;
  const runs = [...node.data.matchAll(CJK)];
  for (let i = runs.length - 1; i >= 0; i--) {
    const { index, 0: run } = runs[i];
    const missing = chars && unsettled(run);
    if (chinese && !missing) continue;
    const tail = node.splitText(index);
    if (tail.data.length > run.length) tail.splitText(run.length);
    const span = document.createElement("span");
    wrappers.add(span);
    if (!chinese) span.lang = CHINESE;
    tail.replaceWith(span);
    span.append(tail);
    if (missing) settle(span, missing);
  }
}

/** Mark and settle every text under `root` (an element or a text node). */
function markRuns(root) {
  if (root.nodeType === Node.TEXT_NODE) {
    markText(root);
    return;
  }
  if (root.nodeType !== Node.ELEMENT_NODE || !open(root)) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.nodeType === Node.TEXT_NODE ? (ANY.test(n.data) ? NodeFilter.FILTER_ACCEPT
      : NodeFilter.FILTER_SKIP) : (open(n) ? NodeFilter.FILTER_SKIP : NodeFilter.FILTER_REJECT)),
  });
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n);
  for (const n of texts) markText(n);
}

function watch() {
  const seen = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "characterData") {
        if (r.target.isConnected) markText(r.target);
      } else {
        for (const n of r.addedNodes) if (n.isConnected) markRuns(n);
      }
    }
  });
  seen.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  if (document.body) markRuns(document.body);
}

if (typeof MutationObserver === "function" && typeof document !== "undefined") watch();
