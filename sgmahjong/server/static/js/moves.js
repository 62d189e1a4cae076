// What the player may do, read from a view: the hand in display order and the legal actions grouped
// for buttons and keys. Pure functions (no DOM).
import { sortTiles } from "./tiles.js";
import { suited } from "./notation.js";
import { ACTION_KEYS } from "./keys.js";

/** My concealed tiles in display order: sorted, the drawn tile apart at the end. */
export function myHand(seatView) {
  const tiles = [...(seatView.concealed || [])];
  const drawn = seatView.drawn || null;
  if (drawn) {
    const total = tiles.length + 3 * (seatView.melds || []).length;
    if (total % 3 === 2) {
      const i = tiles.lastIndexOf(drawn);
      if (i >= 0) tiles.splice(i, 1);
    }
  }
  const out = sortTiles(tiles).map((t) => ({ tile: t, drawn: false }));
  if (drawn) out.push({ tile: drawn, drawn: true });
  return out;
}

/** The view's legal actions, grouped. */
export function legalGroups(view) {
  const g = { discards: new Set(), chows: [], pong: false, kongs: [], win: false, pass: false };
  for (const a of view.legal_actions || []) {
    const [kind, arg] = a.split(" ");
    if (kind === "discard") g.discards.add(arg);
    else if (kind === "chow") g.chows.push(a);
    else if (kind === "pong") g.pong = true;
    else if (kind === "kong") g.kongs.push(a);
    else if (kind === "win") g.win = true;
    else if (kind === "pass") g.pass = true;
  }
  return g;
}

/** "chow 345s" -> {tiles: [3s,4s,5s], key: Z|X|C} relative to the last discard. */
export function chowInfo(action, discard) {
  const arg = action.split(" ")[1];
  const suit = arg.slice(-1);
  const lo = Number(arg[0]);
  const tiles = [lo, lo + 1, lo + 2].map((n) => `${n}${suit}`);
  let key = null;
  const d = discard ? suited(discard) : null;
  if (d && d[1] === suit) {
    if (d[0] === lo) key = ACTION_KEYS.chow_left;
    else if (d[0] === lo + 1) key = ACTION_KEYS.chow_middle;
    else if (d[0] === lo + 2) key = ACTION_KEYS.chow_right;
  }
  return { tiles, key };
}
