// The tutorial (/learn): a first hand played with the player, step by step. Every position, every
// button offered and the score come from js/tutorial-hand.js, which tools/make_tutorial.py plays
// through the rules core; this page only draws them (the site's tiles) and waits for the right move.
import "./site-header.js";
import { backElement, sortTiles, tileElement, tileName } from "./tiles.js";
import { DISCARD_KEYS } from "./keys.js";
import { t } from "./i18n.js";
import HAND from "./tutorial-hand.js";

const $ = (id) => document.getElementById(id);
const SEATS = ["E", "S", "W", "N"];
/** The player's moves in order (the script's `do`), each with its words in the strings files. */
const STEP_KEYS = ["discard_n", "chow", "discard_9m", "pong", "discard_1s", "win"];
/** The claim keys of the table (js/keys.js): the tutorial answers the same keys. */
const CLAIM_KEYS = { pong: "P", win: "H", pass: " ", chow: "Z" };
export const DONE_KEY = "sgmahjong_learned";

let at = -1; // -1: the introduction; 0..n-1: the player's moves; n: the result
let handOrder = []; // the hand tiles in the order drawn (keys 1..9, 0, Q, W, E, R)

function el(tag, cls = "", text = "") {
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
function drawOthers(pos) {
  const box = $("learn-others");
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
function drawCentre(pos, scores) {
  const box = $("learn-centre");
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
function drawYou(pos, step) {
  const box = $("learn-you");
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
  handOrder = sortTiles(you.concealed);
  handOrder.forEach((tile, i) => {
    const b = el("button");
    b.type = "button";
    b.dataset.tile = tile;
    b.dataset.index = String(i);
    b.setAttribute("aria-label", t("learn.tile_button", { tile: tileName(tile), key: DISCARD_KEYS[i] }));
    b.append(tileElement(tile, { size: "md" }), el("span", "learn-key", DISCARD_KEYS[i]));
    b.addEventListener("click", () => tapTile(i));
    hand.append(b);
  });
  box.append(hand);
  const claims = el("div", "learn-claims");
  for (const action of step ? step.legal.filter((a) => !a.startsWith("discard")) : []) {
    const kind = action.split(" ")[0];
    const b = el("button");
    b.type = "button";
    b.dataset.action = kind;
    if (kind === "pass") b.className = "secondary";
    const tiles = action.split(" ")[1];
    b.textContent = t(`table.${kind}`) + (tiles ? ` ${tiles.slice(0, -1).split("").join("-")}` : "");
    b.setAttribute("aria-keyshortcuts", CLAIM_KEYS[kind] === " " ? "Space" : CLAIM_KEYS[kind]);
    b.addEventListener("click", () => tapClaim(kind));
    claims.append(b);
  }
  box.append(claims);
}

function step() {
  return at >= 0 && at < HAND.steps.length ? HAND.steps[at] : null;
}

/** The element the player must use now. */
function target() {
  const s = step();
  if (!s) return at < 0 ? $("learn-start") : null;
  const [kind, tile] = s.do.split(" ");
  if (kind === "discard") return document.querySelector(`.learn-hand button[data-tile="${tile}"]`);
  return document.querySelector(`.learn-claims button[data-action="${kind}"]`);
}

function say(text) {
  $("learn-live").textContent = text;
}

function draw() {
  const n = HAND.steps.length;
  const s = step();
  const pos = at < 0 ? HAND.steps[0].before : s ? s.before : HAND.end;
  const scores = at >= n ? HAND.result.payments : {};
  drawOthers(pos);
  drawCentre(pos, scores);
  drawYou(pos, s);
  $("learn-note").textContent = "";
  const buttons = $("learn-coach-buttons");
  buttons.replaceChildren();
  let words;
  $("learn-intro").hidden = at >= 0;
  $("learn-coach").hidden = at < 0;
  if (at < 0) {
    words = t("learn.intro", { flower: tileName(HAND.steps[0].before.seats[0].bonus[0]),
      drawn: tileName(HAND.steps[0].before.drawn) });
    $("learn-intro-text").textContent = words;
  } else if (s) {
    $("learn-step").textContent = t("learn.step_of", { n: at + 1, total: n });
    words = t(`learn.do.${STEP_KEYS[at]}`, stepParams(s));
  } else {
    $("learn-step").textContent = t("learn.done_h");
    words = t("learn.done");
    showResult(buttons);
  }
  if (at >= 0) $("learn-say").textContent = words;
  $("learn-result").hidden = at < n;
  document.querySelectorAll(".learn-target").forEach((e) => e.classList.remove("learn-target"));
  const aim = target();
  if (aim) {
    aim.classList.add("learn-target");
    aim.setAttribute("aria-describedby", at < 0 ? "learn-intro-text" : "learn-say");
  }
  document.documentElement.dataset.learnStep = at < 0 ? "intro" : s ? STEP_KEYS[at] : "done";
  return { words, aim };
}

function stepParams(s) {
  const [, tile] = s.do.split(" ");
  const d = s.before.discard;
  return {
    tile: tile && tile.length <= 2 ? tileName(tile) : "",
    discard: d ? tileName(d.tile) : "",
    who: d ? t(`wind.${d.seat}`) : "",
  };
}

/** Move to step `i`: draw it, say it, and bring its target into view with the focus on it. */
function go(i) {
  at = i;
  const { words, aim } = draw();
  say(words);
  if (at >= 0) $("learn-coach").scrollIntoView({ block: "nearest" }); // the words, with the hand just above them
  if (aim) {
    aim.focus({ preventScroll: true });
    aim.scrollIntoView({ block: "nearest" });
  }
}

function wrong(elem, text) {
  const note = $("learn-note");
  note.textContent = text;
  say(text);
  if (elem) {
    elem.classList.remove("learn-wrong");
    void elem.offsetWidth; // restart the shake
    elem.classList.add("learn-wrong");
  }
  const aim = target();
  if (aim) {
    aim.focus({ preventScroll: true });
    aim.scrollIntoView({ block: "nearest" });
  }
  document.documentElement.dataset.learnWrong = String(Number(document.documentElement.dataset.learnWrong || 0) + 1);
}

function tapTile(i) {
  const s = step();
  if (!s) return;
  const tile = handOrder[i];
  const button = document.querySelector(`.learn-hand button[data-index="${i}"]`);
  const [kind, want] = s.do.split(" ");
  if (kind === "discard" && tile === want) return go(at + 1);
  if (kind === "discard") {
    return wrong(button, t("learn.wrong.discard", { tile: tileName(tile), want: tileName(want) }));
  }
  return wrong(button, t("learn.wrong.claim_tile", { button: t(`table.${kind}`) }));
}

function tapClaim(kind) {
  const s = step();
  if (!s) return;
  const want = s.do.split(" ")[0];
  if (kind === want) return go(at + 1);
  const button = document.querySelector(`.learn-claims button[data-action="${kind}"]`);
  return wrong(button, t(`learn.wrong.${want}`));
}

function showResult(buttons) {
  const res = HAND.result;
  const box = $("learn-result");
  box.replaceChildren();
  box.append(el("h2", "", t("learn.result_h")));
  const table = el("table", "data patterns");
  const head = el("thead");
  const hr = el("tr");
  hr.append(el("th", "", t("result.col.pattern")), el("th", "num", t("result.col.tai")));
  head.append(hr);
  const body = el("tbody");
  for (const p of res.patterns) {
    const tr = el("tr");
    tr.dataset.pattern = p.id;
    tr.append(el("td", "", `${t(`pattern.${p.id}`)} — ${t(`learn.why.${p.id}`)}`), el("td", "num", String(p.tai)));
    body.append(tr);
  }
  const total = el("tr", "total");
  total.append(el("th", "", t("result.total")), el("th", "num", String(res.tai)));
  body.append(total);
  table.append(head, body);
  const pays = res.payments;
  const shooter = res.shooter;
  const others = SEATS.filter((s) => s !== "E" && s !== shooter);
  const pay = el("p", "learn-pay", t("learn.pay", {
    tai: res.tai,
    each: -pays[others[0]],
    shooter: t(`wind.${shooter}`),
    double: -pays[shooter],
    a: t(`wind.${others[0]}`),
    b: t(`wind.${others[1]}`),
    total: pays.E,
  }));
  box.append(table, pay);
  const play = el("a", "button", t("learn.play"));
  play.href = "/";
  const howto = el("a", "button secondary", t("learn.howto"));
  howto.href = "/how-to-play";
  const again = el("button", "secondary", t("learn.again"));
  again.type = "button";
  again.addEventListener("click", () => go(-1));
  buttons.append(play, howto, again);
  try { localStorage.setItem(DONE_KEY, "1"); } catch (_err) { /* private mode */ }
}

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || !step()) return;
  if ((e.key === "Enter" || e.key === " ") && e.target instanceof HTMLButtonElement) return; // the button's own
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  const i = DISCARD_KEYS.indexOf(key);
  if (i >= 0 && i < handOrder.length) {
    e.preventDefault();
    tapTile(i);
    return;
  }
  const kind = Object.keys(CLAIM_KEYS).find((k) => CLAIM_KEYS[k] === (key === " " ? " " : key));
  if (kind && document.querySelector(`.learn-claims button[data-action="${kind}"]`)) {
    e.preventDefault();
    tapClaim(kind);
  }
});

$("learn-table").setAttribute("aria-label", t("learn.table"));
$("learn-start").addEventListener("click", () => go(0));
at = -1;
draw();
