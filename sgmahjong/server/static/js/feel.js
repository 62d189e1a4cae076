// The table's feel: sounds for draws, discards, claims, wins and payments; motion (a discarded tile
// travels to its pond, a claimed tile moves into the set, a "Pong!" call-out over the claiming seat's
// pond); instant payments as small toasts by the seats concerned. Mine show over the middle of the
// table, never over my hand or sets. With prefers-reduced-motion, or in screen-reader mode, nothing moves.
//
//   const feel = createFeel({felt, mySeat(), seatName(seat)})
//   feel.onEvent(event)    before the view that follows is drawn: remembers where tiles come from
//   feel.afterRender()     after each redraw: plays the motions remembered
import { play } from "./sound.js";
import { t } from "./i18n.js";
import { signed } from "./dom.js";
import { paymentAmounts, paymentReason } from "./events.js";

// How long a tile's flight lasts. A tile that would set off while the one before is still in the air
// cannot be followed: it lands at once, and where it came from is never measured (each measurement
// lays the page out again; at a fast table, twice a discard, the page fell behind the table).
const FLIGHT_MS = 320;

const CALLS = { chow: "table.callout.chow", pong: "table.callout.pong", kong: "table.callout.kong", win: "table.callout.win" };

export function reducedMotion() {
  return srMode() || Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** Screen-reader mode (a11y.js): no motion and no call-outs. */
function srMode() {
  return document.documentElement.classList.contains("sr-mode");
}

export function createFeel(ctx) {
  let pending = [];
  let lastFlight = -Infinity;
  const moves = () => !reducedMotion() && performance.now() - lastFlight >= FLIGHT_MS;

  const pondEl = (seat) => ctx.felt.querySelector(`.pond[data-pond="${seat}"]`);
  const plateOf = (seat) => ctx.felt.querySelector(`.seat[data-seat="${seat}"] .plate`);
  const rect = (el) => (el ? el.getBoundingClientRect() : null);

  /** Where a seat's call-out shows: over its own pond (where the new set lands), and mine over the
   * round and wall in the middle: never over my hand, sets or discards. */
  function calloutAnchor(seat) {
    const centre = ctx.felt.querySelector(".centre");
    if (seat === ctx.mySeat() && centre) return centre;
    const pond = pondEl(seat);
    const r = rect(pond);
    return r && r.width > 0 && r.height > 0 ? pond : plateOf(seat);
  }

  function callout(seat, key) {
    const anchor = calloutAnchor(seat);
    if (!anchor || srMode()) return;
    const el = document.createElement("div");
    el.className = "callout";
    el.textContent = t(key);
    el.setAttribute("aria-hidden", "true");
    const r = anchor.getBoundingClientRect();
    // it rises from the middle of the anchor (its lowest edge a few pixels under that middle)
    placeBy(el, anchor, r.height / 2);
    ctx.felt.append(el);
    keepInside(el);
    setTimeout(() => el.remove(), reducedMotion() ? 1500 : 1300);
  }

  /** Put a floating element just above `anchor` (a seat's plate), inside the felt. */
  function placeBy(el, anchor, dy = 0) {
    const f = ctx.felt.getBoundingClientRect();
    const r = anchor.getBoundingClientRect();
    el.style.left = `${Math.round(r.left - f.left + r.width / 2)}px`;
    el.style.top = `${Math.round(r.top - f.top + dy)}px`;
  }

  /** Move a floating element (placed by its centre) back inside the felt if it sticks out. */
  function keepInside(el) {
    const f = ctx.felt.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    let shift = 0;
    if (r.right > f.right - 4) shift = f.right - 4 - r.right;
    if (r.left + shift < f.left + 4) shift = f.left + 4 - r.left;
    if (shift) el.style.left = `${parseFloat(el.style.left) + shift}px`;
  }

  function payToasts(e) {
    const amounts = paymentAmounts(e);
    if (!amounts) return;
    const reason = paymentReason(e.reason || e.label || e.why || e.what);
    amounts.forEach((a, seat) => {
      if (!a) return;
      const plate = plateOf(seat);
      if (!plate) return;
      const el = document.createElement("div");
      el.className = "pay-toast " + (a > 0 ? "gain flash" : "loss");
      el.setAttribute("aria-hidden", "true"); // the announcer says each payment
      el.dataset.seat = String(seat);
      el.textContent = a > 0 ? `${reason} ${signed(a)}` : signed(a);
      // mine over the middle of the table (never over my hand or sets), the others' under their names
      const centre = ctx.felt.querySelector(".centre");
      if (seat === ctx.mySeat() && centre) placeBy(el, centre, 0);
      else placeBy(el, plate, plate.getBoundingClientRect().height + 4);
      ctx.felt.append(el);
      keepInside(el);
      setTimeout(() => el.remove(), 3500);
    });
  }

  function onEvent(e) {
    const kind = e.kind;
    if (kind === "draw" && e.seat === ctx.mySeat()) play("draw");
    if (kind === "discard") {
      play("discard");
      const mine = e.seat === ctx.mySeat();
      const src = mine ? document.querySelector(`#hand .tile[data-tile="${e.tile}"]`) : plateOf(e.seat);
      if (moves()) pending.push({ kind: "discard", seat: e.seat, tile: e.tile, from: rect(src) });
    }
    if (kind === "chow" || kind === "pong" || kind === "kong") {
      play("claim");
      const last = ctx.felt.querySelector(".discards .tile.last");
      if (moves() && !(kind === "kong" && e.kong_kind !== "exposed")) pending.push({ kind: "claim", seat: e.seat, from: rect(last) });
      pending.push({ kind: "callout", seat: e.seat, key: CALLS[kind] });
    }
    if (kind === "win") {
      play("win");
      pending.push({ kind: "callout", seat: e.seat, key: CALLS.win });
    }
    if (kind === "payment") {
      play("pay");
      payToasts(e);
    }
  }

  function fly(el, from) {
    if (!el || !from || reducedMotion() || !el.animate) return;
    const to = el.getBoundingClientRect();
    let dx = from.left + from.width / 2 - (to.left + to.width / 2);
    let dy = from.top + from.height / 2 - (to.top + to.height / 2);
    if (Math.abs(dx) + Math.abs(dy) < 2) return;
    // the top and right ponds are turned round (table.css): their tiles move in turned coordinates
    if (el.closest(".pond.pos-top, .pond.pos-right")) {
      dx = -dx;
      dy = -dy;
    }
    el.animate([{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 7 }, { transform: "none", zIndex: 7 }],
      { duration: FLIGHT_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
    lastFlight = performance.now();
  }

  function afterRender() {
    const todo = pending;
    pending = [];
    for (const m of todo) {
      if (m.kind === "discard") {
        const pool = ctx.felt.querySelector(`.discards[data-discards="${m.seat}"]`);
        const tile = pool ? pool.querySelector(".tile:last-child") : null;
        if (tile && tile.dataset.tile === m.tile) fly(tile, m.from);
        else pending.push(m); // the view with this discard is not drawn yet
      } else if (m.kind === "callout") {
        callout(m.seat, m.key); // placed once the seat is drawn where it now sits
      } else if (m.kind === "claim") {
        const pond = pondEl(m.seat); // the seat's sets are in its pond, after its discards
        const meld = pond ? [...pond.querySelectorAll(".meld")].pop() : null;
        if (meld) fly(meld, m.from);
      }
    }
    if (pending.length > 4) pending = pending.slice(-4);
  }

  return { onEvent, afterRender };
}
