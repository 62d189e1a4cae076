// The keyboard map of the table (RULES.md §6: the rival site's keys, plus pass).

/** Keys that discard the 1st..14th tile of your hand. */
export const DISCARD_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "Q", "W", "E", "R"];

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

/** Rows for a help table: [keys, meaning]. */
export const KEY_HELP = [
  ["1 … 9, 0, Q, W, E, R", "discard the 1st … 14th tile of your hand (counted from the left)"],
  ["P", "pong (碰) the discard"],
  ["G", "kong (槓): from a discard, or a concealed / added kong on your turn"],
  ["Z", "chow (吃) with the discard as the left tile (6 discarded: 678)"],
  ["X", "chow with the discard as the middle tile (7 discarded: 678)"],
  ["C", "chow with the discard as the right tile (8 discarded: 678)"],
  ["H", "win (胡)"],
  ["Space", "pass (let the discard go)"],
  ["N", "ready for the next hand"],
];

/** The same, short, for the side panel of the table. */
export const KEY_HELP_SHORT = [
  ["1 … 9, 0, Q … R", "discard tile 1 … 14"],
  ["P", "pong 碰"],
  ["G", "kong 槓"],
  ["Z, X, C", "chow 吃 (discard left / middle / right)"],
  ["H", "win 胡"],
  ["Space", "pass"],
  ["N", "next hand"],
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
    w.textContent = what;
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
