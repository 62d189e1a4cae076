// The how-to-play walkthrough: one example hand, step by step, drawn with the table's own tiles; the
// tai of its last step are the server scorer's (POST /api/score), never hand-copied.
import { sortTiles, tileElement } from "./tiles.js";
import { parseTiles } from "./notation.js";
import { patternLabel, postJSON } from "./api.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";

// You are East (the dealer); the hand string of the win, in the rules' notation, is scored by the server.
const WIN = { hand: "234m 99p 56s [678p] [CCC] +4s /1f", seat: "E", wind: "E", shooter: "S" };

// Each step: the concealed tiles, the exposed sets, the bonus tiles, the discards so far, and the tiles
// to mark (the tile that moves in this step) with how ("out" leaves the hand, "in" arrives).
const STEPS = [
  { key: "deal", hand: "234m 9m 78p 9p 1s 56s CC N 9p", bonus: "1f", mark: { "9p": "in", "1f": "in" } },
  { key: "discard", hand: "234m 9m 78p 99p 1s 56s CC N", bonus: "1f", pool: "N", mark: { N: "out" } },
  { key: "chow", hand: "234m 9m 99p 1s 56s CC", sets: ["678p"], bonus: "1f", pool: "N 9m", mark: { "6p": "in", "9m": "out" } },
  { key: "pong", hand: "234m 99p 1s 56s", sets: ["678p", "CCC"], bonus: "1f", pool: "N 9m 1s", mark: { C: "in", "1s": "out" } },
  { key: "win", hand: "234m 99p 56s", sets: ["678p", "CCC"], bonus: "1f", pool: "N 9m 1s", win: "4s", mark: { "4s": "in" } },
];

const FIRST_STEPS = 0; // drawn before the page is shown: none (the tour and the tiles fill the first screen)

function row(label, tiles, mark = {}, cls = "") {
  const wrap = document.createElement("div");
  wrap.className = `walk-row ${cls}`;
  const name = document.createElement("span");
  name.className = "walk-label";
  name.textContent = label;
  const tilesEl = document.createElement("span");
  tilesEl.className = "tiles";
  const marked = new Set();
  for (const tile of tiles) {
    const el = tileElement(tile, { size: "sm" });
    if (mark[tile] && !marked.has(tile)) {
      el.classList.add(mark[tile] === "out" ? "walk-out" : "walk-in");
      marked.add(tile);
    }
    tilesEl.append(el);
  }
  wrap.append(name, tilesEl);
  return wrap;
}

function setsRow(sets, mark) {
  const wrap = document.createElement("div");
  wrap.className = "walk-row";
  const name = document.createElement("span");
  name.className = "walk-label";
  name.textContent = t("howto.walk.sets");
  wrap.append(name);
  for (const s of sets) {
    const meld = document.createElement("span");
    meld.className = "tiles walk-set";
    const marked = new Set();
    for (const tile of parseTiles(s)) {
      const el = tileElement(tile, { size: "sm" });
      if (mark[tile] === "in" && !marked.has(tile) && s === sets[sets.length - 1]) {
        el.classList.add("walk-in");
        marked.add(tile);
      }
      meld.append(el);
    }
    wrap.append(meld);
  }
  return wrap;
}

/** Draw the walkthrough in `el`: its first FIRST_STEPS steps at once, each later one (and the scored
 * hand) through `later` (dom.whenIdle on How to play: they are below the first screen). */
export function renderWalkthrough(el, later = (fn) => fn()) {
  el.textContent = "";
  const list = document.createElement("ol");
  list.className = "walk";
  el.append(list);
  STEPS.forEach((step, i) => {
    if (i < FIRST_STEPS) list.append(stepItem(step));
    else later(() => list.append(stepItem(step)));
  });
  later(() => list.append(taiItem()));
}

function stepItem(step) {
  const li = document.createElement("li");
  li.dataset.step = step.key;
  const h = document.createElement("h3");
  h.textContent = t(`howto.walk.${step.key}.h`);
  const p = document.createElement("p");
  p.textContent = t(`howto.walk.${step.key}.p`);
  li.append(h, p);
  const hand = parseTiles(step.hand);
  const shown = sortTiles(hand);
  const handTiles = step.win ? [...shown, step.win] : shown;
  li.append(row(t("howto.walk.hand"), handTiles, step.mark, "walk-hand"));
  if (step.sets) li.append(setsRow(step.sets, step.mark));
  if (step.bonus) li.append(row(t("howto.walk.bonus"), parseTiles(step.bonus), step.key === "deal" ? step.mark : {}));
  if (step.pool) li.append(row(t("howto.walk.pool"), parseTiles(step.pool), step.mark));
  return li;
}

function taiItem() {
  const last = document.createElement("li");
  last.dataset.step = "tai";
  const h = document.createElement("h3");
  h.textContent = t("howto.walk.tai.h");
  const p = document.createElement("p");
  p.textContent = t("howto.walk.tai.p");
  const out = document.createElement("div");
  out.id = "walk-score";
  out.textContent = t("common.loading");
  last.append(h, p, out);
  score(out);
  return last;
}

async function score(out) {
  let res;
  try {
    res = await postJSON("/api/score", WIN);
  } catch (err) {
    out.textContent = t("howto.walk.tai.failed", { reason: errorText(err) });
    return;
  }
  const table = document.createElement("table");
  table.className = "data patterns";
  const head = document.createElement("thead");
  head.innerHTML = `<tr><th>${t("result.col.pattern")}</th><th class="num">${t("result.col.tai")}</th></tr>`;
  const body = document.createElement("tbody");
  for (const pat of res.patterns || []) {
    const tr = document.createElement("tr");
    tr.dataset.pattern = pat.id || pat.name;
    const name = document.createElement("td");
    name.textContent = patternLabel(pat.id || pat.name) || pat.name;
    const tai = document.createElement("td");
    tai.className = "num";
    tai.textContent = String(pat.tai);
    tr.append(name, tai);
    body.append(tr);
  }
  const total = document.createElement("tr");
  total.className = "total";
  total.innerHTML = `<th>${t("result.total")}</th><th class="num">${Number(res.tai)}</th>`;
  body.append(total);
  table.append(head, body);
  const pay = document.createElement("p");
  pay.className = "walk-pay";
  const names = { E: t("wind.E"), S: t("wind.S"), W: t("wind.W"), N: t("wind.N") };
  pay.textContent = `${t("howto.walk.payments")}: ` + Object.entries(res.payments || {})
    .map(([k, v]) => `${names[k] || k} ${v > 0 ? "+" : ""}${v}`).join(", ");
  out.replaceChildren(table, pay);
  out.dataset.tai = String(res.tai);
}
