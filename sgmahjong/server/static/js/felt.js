// The felt of a finished hand's replay: four seats around their ponds, drawn from one view, from the
// point of view of `bottom` (that seat sits at the bottom with its hand large). Uses the same tile art
// (tiles.js), melds (dom.js), ponds (`pondElement`) and table layout classes (.felt, .seat.pos-*,
// .pond.pos-*) as the live table, with nothing interactive.
import { backElement, sortTiles, tileElement } from "./tiles.js";
import { meldsElement } from "./dom.js";
import { myHand } from "./moves.js";
import { t } from "./i18n.js";

export const WIND_GLYPH = { E: "東", S: "南", W: "西", N: "北" };
export const SEAT_LETTERS = ["E", "S", "W", "N"];
const SPOTS = ["bottom", "right", "top", "left"];

/** Where `seat` sits when `bottom` is at the bottom. */
export function spotOf(seat, bottom) {
  return SPOTS[(seat - bottom + 4) % 4];
}

function span(cls, text, title = "") {
  const el = document.createElement("span");
  el.className = cls;
  el.textContent = text;
  if (title) el.title = title;
  return el;
}

function namePlate(seat, sv, v, o) {
  const p = document.createElement("div");
  p.className = "plate";
  const n = (v.hand_ledger || [])[seat] || 0;
  p.append(span("wind-badge", WIND_GLYPH[sv.wind] || sv.wind || ""), span("name", o.seatName(seat)));
  if (v.dealer === seat) p.append(span("dealer", t("table.dealer"), t("table.dealer_title")));
  p.append(span("score", n > 0 ? `+${n}` : String(n), t("replay.hand_so_far")));
  return p;
}

function concealedRow(sv, faceUp, side) {
  const box = document.createElement("div");
  box.className = "hidden";
  box.dataset.count = String(sv.concealed_count ?? 0);
  if (faceUp && sv.concealed) {
    box.style.flexDirection = "row";
    box.style.flexWrap = "wrap";
    for (const entry of myHand(sv)) {
      const te = tileElement(entry.tile, { size: "sm", extraClass: entry.drawn ? "just-drawn" : "" });
      box.append(te);
    }
    return box;
  }
  for (let i = 0; i < (sv.concealed_count || 0); i += 1) box.append(backElement({ size: "sm", side }));
  return box;
}

function bigHand(sv) {
  const area = document.createElement("div");
  area.className = "my-area";
  const hand = document.createElement("div");
  hand.id = "hand";
  for (const entry of myHand(sv)) {
    const slot = document.createElement("div");
    slot.className = "slot" + (entry.drawn ? " drawn" : "");
    slot.append(tileElement(entry.tile, { extraClass: entry.drawn ? "just-drawn" : "" }));
    hand.append(slot);
  }
  area.append(hand);
  return area;
}

/** A seat's bonus tiles (flowers and animals) as a `.bonus` row. */
export function bonusRow(tiles, size) {
  const bonus = document.createElement("div");
  bonus.className = "bonus";
  for (const t of tiles) bonus.append(tileElement(t, { size }));
  return bonus;
}

/** Every discard `sv` made, in order: {tile, by} (by: the seat that took it, else null). */
export function pileOf(sv) {
  const left = [...(sv.discards || [])];
  const taken = new Map((sv.taken || []).map(([place, tile, by]) => [place, { tile, by }]));
  const out = [];
  for (let i = 0; left.length || taken.size; i += 1) {
    if (taken.has(i)) {
      out.push(taken.get(i));
      taken.delete(i);
    } else if (left.length) {
      out.push({ tile: left.shift(), by: null });
    } else {
      break;
    }
  }
  return out;
}

/**
 * The discard pool of `seat` in view `v`, placed at `spot`: every discard in order, wrapping in rows,
 * a claimed one dimmed and marked with the wind of the seat that took it; the last discard of the view
 * marked. `seatName(seat)` (optional) names the taker in the tile's title.
 */
export function discardPool(v, seat, spot, seatName = null) {
  const pool = document.createElement("div");
  pool.className = `discards pos-${spot}`;
  pool.dataset.discards = String(seat);
  const pile = pileOf(v.seats[seat]);
  const last = pile.map((p) => p.by === null).lastIndexOf(true);
  pile.forEach((p, i) => {
    const te = tileElement(p.tile, { size: "sm" });
    if (p.by !== null) {
      te.classList.add("taken");
      te.dataset.takenBy = String(p.by);
      const wind = (v.seats[p.by] && v.seats[p.by].wind) || SEAT_LETTERS[p.by];
      const mark = document.createElement("span");
      mark.className = "taken-by";
      mark.textContent = WIND_GLYPH[wind] || "";
      mark.setAttribute("aria-hidden", "true");
      te.append(mark);
      te.title = t("table.taken_by", { tile: te.title, who: seatName ? seatName(p.by) : WIND_GLYPH[wind] });
      te.setAttribute("aria-label", te.title);
    } else if (v.last_discard && v.last_discard.seat === seat && i === last) {
      te.classList.add("last");
    }
    pool.append(te);
  });
  return pool;
}

/**
 * A seat's pond, in front of it: its discards (`discardPool`), then its exposed sets and bonus tiles,
 * together in one `.pond.pos-{spot}[data-pond=seat]` that the page's CSS turns towards the seat.
 * o: {seatName(seat), meldTitle(meld)} (both optional).
 */
export function pondElement(v, seat, spot, o = {}) {
  const pond = document.createElement("div");
  pond.className = `pond pos-${spot}`;
  pond.dataset.pond = String(seat);
  const sv = v.seats[seat];
  const exposed = document.createElement("div");
  exposed.className = "exposed";
  exposed.append(meldsElement(sv.melds || [], "sm", o.meldTitle || null), bonusRow(sortTiles(sv.bonus || []), "sm"));
  pond.append(discardPool(v, seat, spot, o.seatName || null), exposed);
  return pond;
}

/** Hovering or focusing a face-up tile inside `root` highlights every visible copy of it there. */
export function highlightCopies(root) {
  const clear = () => root.querySelectorAll(".tile.same").forEach((el) => el.classList.remove("same"));
  const show = (ev) => {
    const tile = ev.target.closest ? ev.target.closest(".tile[data-tile]") : null;
    clear();
    if (!tile || !root.contains(tile)) return;
    root.querySelectorAll(`.tile[data-tile="${tile.dataset.tile}"]`).forEach((el) => el.classList.add("same"));
  };
  root.addEventListener("mouseover", show);
  root.addEventListener("focusin", show);
  root.addEventListener("mouseleave", clear);
  root.addEventListener("focusout", (ev) => { if (!root.contains(ev.relatedTarget)) clear(); });
}

/**
 * Draw view `v` on `felt` (which holds a `.centre`). o: {bottom (seat), open (every hand face up),
 * seatName(seat), active (Set of seats to highlight)}. The bottom seat's hand is always shown.
 */
export function renderFelt(felt, v, o) {
  felt.querySelectorAll(".seat, .pond").forEach((el) => el.remove());
  const ended = v.phase === "ended";
  for (const sv of v.seats) {
    const seat = sv.seat;
    const spot = spotOf(seat, o.bottom);
    const el = document.createElement("div");
    el.className = `seat pos-${spot}` + (o.active && o.active.has(seat) && !ended ? " active" : "") +
      (seat === o.bottom ? " me" : "");
    el.dataset.seat = String(seat);
    el.append(namePlate(seat, sv, v, o));
    const row = document.createElement("div");
    row.className = "row";
    if (seat !== o.bottom) row.append(concealedRow(sv, o.open || ended, spot === "left" || spot === "right"));
    if (row.children.length) el.append(row);
    if (seat === o.bottom) el.append(bigHand(sv));
    felt.append(el, pondElement(v, seat, spot, { seatName: o.seatName }));
  }
}
