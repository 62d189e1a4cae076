// Small DOM builders shared by the pages, and when to run work (after the first paint, in the next frame).
import { backElement, tileElement } from "./tiles.js";
import { drawn } from "./i18n.js";

/** A row of face-up tiles. */
export function tilesRow(tiles, size, cls = "tiles") {
  const row = document.createElement("span");
  row.className = cls;
  for (const t of tiles) row.append(tileElement(t, { size }));
  return row;
}

/** A key cap, e.g. kbd("P"). */
export function kbd(text) {
  const k = document.createElement("kbd");
  k.textContent = text;
  return k;
}

/** A button with data-action, calling onClick. */
export function button(label, action, onClick, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.dataset.action = action;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

/** Run `fn` once the page is shown, when the browser is idle (within 1 s): building what the first
 * screen does not show, in pieces, keeps each task short. Calls run in the order they were asked. */
export function whenIdle(fn) {
  drawn.then(() => {
    if (window.requestIdleCallback) requestIdleCallback(fn, { timeout: 1000 });
    else setTimeout(fn, 1);
  });
}

const scrolls = new Map(); // element -> "end" | "top", scrolled in the next frame

/** Scroll `el` to its end ("end") or its top ("top") in the next frame: reading or setting its scroll
 * position now would lay the whole page out in the middle of a redraw (a long task on a phone). */
export function scrollLater(el, where = "end") {
  if (!scrolls.size) {
    requestAnimationFrame(() => {
      for (const [e, w] of scrolls) e.scrollTop = w === "end" ? e.scrollHeight : 0;
      scrolls.clear();
    });
  }
  scrolls.set(el, where);
}

/** A number with its sign: +4, -2, 0. */
export function signed(n) {
  const x = Number(n) || 0;
  return x > 0 ? `+${x}` : String(x);
}

/** Exposed sets and concealed kongs (data-meld = chow|pong|kong); titleOf(meld) gives a tooltip. */
export function meldsElement(melds, size, titleOf = null) {
  const wrap = document.createElement("div");
  wrap.className = "melds";
  for (const m of melds) {
    const el = document.createElement("span");
    el.className = "meld";
    el.dataset.meld = m.kind || "";
    if (titleOf) el.title = titleOf(m);
    m.tiles.forEach((t, i) => {
      // a concealed kong shows its two end tiles face down
      if (m.concealed && m.tiles.length === 4 && (i === 0 || i === 3)) el.append(backElement({ size }));
      else el.append(tileElement(t, { size }));
    });
    if (m.concealed) el.dataset.concealed = "true";
    wrap.append(el);
  }
  return wrap;
}
