// The tile tracker: for each of the 34 kinds of tile, the copies not yet seen from this seat's own view
// (4 less the copies in its hand, in every set shown and in every discard pile). Nothing else is known.
import { tileElement, tileName } from "./tiles.js";
import { t } from "./i18n.js";

export const KINDS = [
  ..."123456789".split("").map((n) => `${n}m`), ..."123456789".split("").map((n) => `${n}p`),
  ..."123456789".split("").map((n) => `${n}s`), "E", "S", "W", "N", "C", "F", "P",
];

/** tile -> copies not yet seen in view `v` (the viewer's own tiles count as seen). */
export function unseen(v) {
  const seen = new Map(KINDS.map((k) => [k, 0]));
  const add = (tile) => { if (seen.has(tile)) seen.set(tile, seen.get(tile) + 1); };
  for (const sv of v.seats || []) {
    (sv.concealed || []).forEach(add);
    if (sv.drawn) add(sv.drawn);
    (sv.discards || []).forEach(add);
    for (const m of sv.melds || []) (m.tiles || []).forEach(add);
  }
  return new Map(KINDS.map((k) => [k, Math.max(0, 4 - seen.get(k))]));
}

/** Draw the tracker for view `v` into `el`. */
export function renderTracker(el, v) {
  el.innerHTML = "";
  el.classList.add("tracker");
  for (const [tile, n] of unseen(v)) {
    const cell = document.createElement("span");
    cell.className = "tracker-cell" + (n === 0 ? " gone" : "");
    cell.dataset.tile = tile;
    cell.dataset.unseen = String(n);
    cell.title = t("table.tracker_left", { tile: tileName(tile), n });
    const te = tileElement(tile, { size: "xs" });
    te.setAttribute("aria-hidden", "true");
    const count = document.createElement("b");
    count.textContent = String(n);
    cell.append(te, count);
    el.append(cell);
  }
}
