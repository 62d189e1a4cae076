// The pages' languages: English and 中文 (simplified). Every string a page shows comes from one strings
// file per language (strings/en.js, strings/zh.js: the same keys), looked up with t(key, params).
//
//   t("table.turn.other", {who: "Ann"})   -> "Ann's turn" / "Ann 出牌"
//   t("club.hands_n", {n: 1})              -> "1 hand" (the key's "#one" form), {n: 2} -> "2 hands"
//   lang()                                 -> "en" | "zh"
//   applyI18n(root)                        fills [data-i18n] (text), [data-i18n-html] (our own markup)
//                                          and [data-i18n-attr="title:key;aria-label:key"]
//   langSwitch()                           a button that switches the language (remembered)
//
// The language: ?lang=en|zh in the address, else the one chosen before (localStorage), else the
// browser's (zh* -> 中文), else English. Switching reloads the page, so every text is drawn anew.
// Only the page's language's strings file is loaded (tests/test_font_coverage.py keeps both files'
// keys the same).
import { FONT, FONT_WAIT_MS } from "./langruns.js";

const LOADERS = { en: () => import("./strings/en.js"), zh: () => import("./strings/zh.js") };
const STORE_KEY = "sgmahjong:lang";
/** [code, name of the language in itself]. */
export const LANGS = [["en", "English"], ["zh", "中文"]];

function chooseLang() {
  const q = new URLSearchParams(location.search).get("lang");
  if (q && LOADERS[q]) {
    remember(q);
    return q;
  }
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (saved && LOADERS[saved]) return saved;
  } catch (_err) {
    /* private mode */
  }
  const prefs = navigator.languages || [navigator.language || "en"];
  for (const p of prefs) {
    const code = String(p).toLowerCase();
    if (code.startsWith("zh")) return "zh";
    if (code.startsWith("en")) return "en";
  }
  return "en";
}

function remember(code) {
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch (_err) {
    /* private mode: the choice lasts as long as the page */
  }
}

const current = chooseLang();
document.documentElement.lang = current === "zh" ? "zh-Hans" : "en";
// the server reads it to preload this language's strings with the next page (docs/delivery.md)
document.cookie = `sgmahjong_lang=${current}; path=/; max-age=31536000; SameSite=Lax`;
// The bundled CJK faces (fonts/fonts.css) are loaded before any text is set, beside the strings: text
// laid out while its face is still loading can keep the fallback's glyphs after the face arrives (seen
// in Chromium: a heading or button of boxes where no system font has the characters). The common
// characters of the page's language are enough to load its faces; a slow network waits FONT_WAIT_MS
// at most, then the page draws with what it has.
function bundledFonts() {
  if (!document.fonts || typeof document.fonts.load !== "function") return null;
  // U+4E2D is in the English pages' file (the tiles' names), U+7684 in the 中文 pages' own file
  const sample = current === "zh" ? "\u4e2d\u7684" : "\u4e2d";
  return Promise.race([
    document.fonts.load(FONT, sample).catch(() => null),
    new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS)),
  ]);
}
const STRINGS = (await Promise.all([LOADERS[current](), bundledFonts()]))[0].default;

/** The current language code. */
export function lang() {
  return current;
}

/** Whether `key` has a text. */
export function has(key) {
  return key in STRINGS;
}

const PLURALS = new Intl.PluralRules(current === "zh" ? "zh" : "en");
const COUNTS = ["n", "count", "most", "hands", "months", "rounds"]; // the params a text's plural form follows

/** The text of `key` with {name} placeholders filled from params; the key itself if unknown. A count
 * (the first number among params n, count, most, hands, months, rounds) picks the language's plural form when the
 * strings file has one: "club.hands_n#one" ("{n} hand") beside "club.hands_n" ("{n} hands"), chosen
 * by Intl.PluralRules (中文 has one form: its "#one" texts are the same as the others). */
export function t(key, params = null) {
  let s = STRINGS[key];
  if (s === undefined) return key;
  const count = params ? COUNTS.map((p) => params[p]).find((v) => typeof v === "number") : undefined;
  if (count !== undefined) {
    const form = STRINGS[`${key}#${PLURALS.select(count)}`];
    if (form !== undefined) s = form;
  }
  if (params) s = s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return s;
}

/** Switch to `code`, remember it and redraw the page. */
export function setLang(code) {
  if (!LOADERS[code] || code === current) return;
  remember(code);
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.set("lang", code);
    location.replace(url.toString());
  } else {
    location.reload();
  }
}

/** Fill the marked elements under `root` with their texts. */
export function applyI18n(root = document) {
  root.querySelectorAll("[data-i18n]").forEach((el) => {
    el.textContent = t(el.dataset.i18n);
  });
  root.querySelectorAll("[data-i18n-html]").forEach((el) => {
    el.innerHTML = t(el.dataset.i18nHtml); // our own strings files only, never user text
  });
  root.querySelectorAll("[data-i18n-attr]").forEach((el) => {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  });
}

/** A button offering the other language ("中文" on an English page, "English" on a Chinese one). */
export function langSwitch() {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "lang-switch secondary";
  const other = LANGS.find(([code]) => code !== current);
  b.textContent = other[1];
  b.lang = other[0] === "zh" ? "zh-Hans" : "en";
  b.dataset.lang = other[0];
  b.setAttribute("aria-label", `${t("lang.switch")}: ${other[1]}`);
  b.addEventListener("click", () => setLang(other[0]));
  return b;
}

applyI18n(document);
const drawing = [];
let markDrawn = null;
/** Settles once the page is shown (html[data-drawn]). */
export const drawn = new Promise((resolve) => {
  markDrawn = resolve;
});

/** Keep the page hidden (app.css) until `promise` settles too: a page drawing data it fetches at start
 * is shown with that data (nothing moves when it comes), or after 3 s whatever happens. */
export function shownAfter(promise) {
  drawing.push(promise);
  return promise;
}

// The page is shown in the next frame (the modules importing this one draw it before then) once what
// they passed to shownAfter has settled.
requestAnimationFrame(() => Promise.allSettled(drawing).then(() => {
  requestAnimationFrame(() => {
    document.documentElement.setAttribute("data-drawn", "");
    markDrawn();
  });
}));
