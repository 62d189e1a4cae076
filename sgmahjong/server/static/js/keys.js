// The keyboard map of the table (RULES.md §6: the rival site's keys, plus pass).
import { t } from "./i18n.js";

/** Keys that discard the 1st..14th tile of your hand. */
export const DISCARD_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "Q", "W", "E", "R"];

/** The key that opens (and closes) the table's play options sheet. */
export const SHEET_KEY = ",";

/** Claim keys: action kind (or chow position) -> key. */
export const ACTION_KEYS = {
  pong: "P",
  kong: "G",
  chow_left: "Z",
  chow_middle: "X",
  chow_right: "C",
  win: "H",
  pass: "Space",
  next: "N",
};

/** Rows for a help table: [keys, meaning key]. */
export const KEY_HELP = [
  ["1 … 9, 0, Q, W, E, R", "keys.discard"],
  ["P", "keys.pong"],
  ["G", "keys.kong"],
  ["Z", "keys.chow_left"],
  ["X", "keys.chow_middle"],
  ["C", "keys.chow_right"],
  ["H", "keys.win"],
  ["Space", "keys.pass"],
  ["N", "keys.next"],
  ["T, J", "keys.chat"],
  [",", "keys.sheet"],
];

/** The same, short, for the side panel of the table. */
export const KEY_HELP_SHORT = [
  ["1 … 9, 0, Q … R", "keys.short.discard"],
  ["Tab, Enter", "keys.short.tab"],
  ["P", "keys.short.pong"],
  ["G", "keys.short.kong"],
  ["Z, X, C", "keys.short.chow"],
  ["H", "keys.short.win"],
  ["Space", "keys.short.pass"],
  ["N", "keys.short.next"],
  ["T, J", "keys.short.chat"],
  [",", "keys.short.sheet"],
];

/** Render KEY_HELP (or KEY_HELP_SHORT with short=true, as a compact wrapping list) into an element. */
export function renderKeyHelp(el, short = false) {
  el.classList.add(short ? "keys-short" : "keys");
  el.innerHTML = "";
  for (const [keys, what] of short ? KEY_HELP_SHORT : KEY_HELP) {
    const k = document.createElement("span");
    for (const part of keys.split(/(, | … )/)) {
      if (part === ", " || part === " … ") k.append(part);
      else {
        const kbd = document.createElement("kbd");
        kbd.textContent = part;
        k.append(kbd);
      }
    }
    const w = document.createElement("span");
    w.textContent = t(what);
    if (short) {
      const item = document.createElement("span");
      item.className = "key-item";
      item.append(k, " ", w);
      el.append(item);
    } else {
      el.append(k, w);
    }
  }
}
