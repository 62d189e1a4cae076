// The tutorial's small table (js/learn.js), also the picture of the screen on How to play: the three
// other seats, the middle (wall count, the discard on the table, the scores) and your side (sets, bonus
// tiles, pond, hand, the claim buttons). Each area carries data-area for the tour and the tests.
import { backElement, sortTiles, tileElement, tileName } from "./tiles.js";
import { DISCARD_KEYS } from "./keys.js";
import { t } from "./i18n.js";

const SEATS = ["E", "S", "W", "N"];
/** The claim keys of the table (js/keys.js): the tutorial answers the same keys. */
export const CLAIM_KEYS = { pong: "P", win: "H", pass: " ", chow: "Z" };

export function el(tag, cls = "", text = "") {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}

function tilesRow(tiles, size = "xs") {
  const row = el("span", "tiles");
  for (const tile of tiles) row.append(tileElement(tile, { size }));
  return row;
}

function labelled(label, content) {
  const wrap = el("div");
  wrap.append(el("div", "learn-label", label), content);
  return wrap;
}

function meldsRow(melds) {
  const row = el("span", "tiles");
  for (const m of melds) {
    const set = el("span", "tiles learn-set");
    set.dataset.meld = m.kind;
    for (const tile of m.tiles) set.append(tileElement(tile, { size: "xs" }));
    row.append(set);
  }
  return row;
}

/** The three other seats: their hidden tiles (backs), sets, bonus tiles and ponds. */
export function drawOthers(box, pos) {
  box.replaceChildren();
  for (const i of [3, 2, 1]) { // left (North), across (West), right (South), as seen from East
    const s = pos.seats[i];
    const seat = el("section", "learn-seat");
    seat.dataset.seat = SEATS[i];
    const h = el("h2");
    h.append(el("span", "", t(`wind.${SEATS[i]}`)), el("span", "learn-count", t("learn.tiles_held", { n: s.concealed })));
    seat.append(h);
    const backs = el("span", "tiles");
    backs.setAttribute("aria-hidden", "true");
    backs.classList.add("learn-backs");
    for (let k = 0; k < Math.min(s.concealed, 13); k++) backs.append(backElement({ size: "xs" }));
    seat.append(backs);
    if (s.melds.length) seat.append(labelled(t("learn.sets"), meldsRow(s.melds)));
    const pond = s.discards.length ? tilesRow(s.discards) : el("span", "learn-none", t("learn.pond_empty"));
    const pondBox = labelled(t("learn.pond"), pond);
    pondBox.dataset.area = "pond";
    seat.append(pondBox);
    box.append(seat);
  }
}

/** The middle: the wall count, the discard waiting for claims, the scores. */
export function drawCentre(box, pos, scores) {
  box.replaceChildren();
  const wall = el("span", "learn-wall", t("learn.wall", { n: pos.wall }));
  wall.dataset.area = "wall";
  box.append(wall);
  if (pos.discard) {
    const d = el("span", "learn-discard");
    d.dataset.area = "discard";
    d.append(el("span", "", t("learn.discarded", { who: t(`wind.${pos.discard.seat}`) })),
      tileElement(pos.discard.tile, { size: "sm" }));
    box.append(d);
  }
  const sc = el("span", "learn-scores");
  sc.dataset.area = "scores";
  for (const s of SEATS) {
    const n = scores[s] || 0;
    sc.append(el("span", "", `${t(`wind.${s}`)} ${n > 0 ? "+" : ""}${n}`));
  }
  box.append(sc);
}

/** Your side: sets, bonus tiles, pond, the hand as buttons, the claim buttons the core offers. */
export function drawYou(box, pos, step, handlers) {
  box.replaceChildren();
  const you = pos.seats[0];
  const h = el("h2", "learn-label", t("learn.you"));
  box.append(h);
  const top = el("div", "learn-you-top");
  if (you.melds.length) top.append(labelled(t("learn.sets"), meldsRow(you.melds)));
  top.append(labelled(t("learn.bonus"), tilesRow(you.bonus)));
  const pond = you.discards.length ? tilesRow(you.discards) : el("span", "learn-none", t("learn.pond_empty"));
  top.append(labelled(t("learn.pond"), pond));
  box.append(top);
  const hand = el("div", "learn-hand");
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", t("learn.hand"));
  const order = sortTiles(you.concealed);
  order.forEach((tile, i) => {
    const b = el(handlers ? "button" : "span", "learn-hand-tile");
    b.dataset.tile = tile;
    b.dataset.index = String(i);
    if (handlers) {
      b.type = "button";
      b.setAttribute("aria-label", t("learn.tile_button", { tile: tileName(tile), key: DISCARD_KEYS[i] }));
      b.addEventListener("click", () => handlers.tile(i));
    }
    b.append(tileElement(tile, { size: "md" }), el("span", "learn-key", DISCARD_KEYS[i]));
    hand.append(b);
  });
  box.append(hand);
  const claims = el("div", "learn-claims");
  for (const action of step ? step.legal.filter((a) => !a.startsWith("discard")) : []) {
    const kind = action.split(" ")[0];
    const b = el("button");
    b.type = "button";
    b.dataset.action = kind;
    if (!handlers) b.tabIndex = -1;
    if (kind === "pass") b.className = "secondary";
    const tiles = action.split(" ")[1];
    b.textContent = t(`table.${kind}`) + (tiles ? ` ${tiles.slice(0, -1).split("").join("-")}` : "");
    b.setAttribute("aria-keyshortcuts", CLAIM_KEYS[kind] === " " ? "Space" : CLAIM_KEYS[kind]);
    if (handlers) b.addEventListener("click", () => handlers.claim(kind));
    claims.append(b);
  }
  box.append(claims);
  return order;
}

/** The whole table in `root` (its .learn-others, .learn-centre and .learn-you); returns the hand's order. */
export function drawTable(root, pos, step, scores = {}, handlers = null) {
  drawOthers(root.querySelector(".learn-others"), pos);
  drawCentre(root.querySelector(".learn-centre"), pos, scores);
  return drawYou(root.querySelector(".learn-you"), pos, step, handlers);
}
