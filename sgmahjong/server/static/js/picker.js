// The calculator's tile picker: the hand shown as tiles (tap one to take it out) and every face to tap
// in (as a tile of the hand, an exposed chow/pong/kong, a concealed kong, the winning tile, or a
// flower/animal). It edits the same hand as the notation field, which stays in sync both ways:
// formatHand(hand) is the notation of a picked hand, parseHand (notation.js) reads a typed one.
import { t } from "./i18n.js";
import { parseHand, suited } from "./notation.js";
import { ALL_FACES, sortTiles, tileElement, tileName } from "./tiles.js";

const MODES = ["tile", "chow", "pong", "kong", "ckong", "winning"];
const isBonus = (tile) => /^[1-8]f$|^[1-4]a$/.test(tile);

/** A run of tiles in short notation: "55p 23s EE". */
function compact(tiles) {
  const parts = [];
  for (const tile of sortTiles(tiles)) {
    const s = suited(tile) || (isBonus(tile) ? [tile[0], tile[1]] : null);
    const last = parts[parts.length - 1];
    if (s && last && last.suit === s[1]) last.digits += s[0];
    else if (s) parts.push({ suit: s[1], digits: String(s[0]) });
    else if (last && !last.suit) last.digits += tile;
    else parts.push({ suit: "", digits: tile });
  }
  return parts.map((p) => p.digits + p.suit).join(" ");
}

/** The notation of a hand {concealed, melds: [{tiles, concealed}], winning, bonus}. */
export function formatHand(hand) {
  const out = [];
  if (hand.concealed.length) out.push(compact(hand.concealed));
  for (const m of hand.melds) out.push(m.concealed ? `{${compact(m.tiles)}}` : `[${compact(m.tiles)}]`);
  if (hand.winning) out.push(`+${hand.winning}`);
  if (hand.bonus.length) out.push(`/${compact(hand.bonus).replaceAll(" ", "")}`);
  return out.join(" ");
}

function allTiles(hand) {
  return [...hand.concealed, ...hand.melds.flatMap((m) => m.tiles), ...(hand.winning ? [hand.winning] : []),
    ...hand.bonus];
}

/** The tiles tapping `tile` adds in `mode` (null: that cannot be, e.g. a chow from 8). */
function addition(tile, mode) {
  if (isBonus(tile)) return { bonus: [tile] };
  const s = suited(tile);
  switch (mode) {
    case "chow": return s && s[0] <= 7 ? { meld: { tiles: [0, 1, 2].map((k) => `${s[0] + k}${s[1]}`), concealed: false } } : null;
    case "pong": return { meld: { tiles: [tile, tile, tile], concealed: false } };
    case "kong": return { meld: { tiles: [tile, tile, tile, tile], concealed: false } };
    case "ckong": return { meld: { tiles: [tile, tile, tile, tile], concealed: true } };
    case "winning": return { winning: tile };
    default: return { concealed: [tile] };
  }
}

function button(cls, label, child) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.setAttribute("aria-label", label);
  b.title = label;
  b.append(child);
  return b;
}

/**
 * Set up the picker in `root` for the notation `input`; `onChange()` runs after every change either way.
 * Returns {refresh()} to redraw after the input was set by other code.
 */
export function initPicker(root, input, onChange) {
  let hand = { concealed: [], melds: [], winning: null, bonus: [] };
  root.innerHTML = "";
  const shown = document.createElement("div");
  shown.className = "picked";
  shown.id = "picked";
  shown.setAttribute("aria-live", "polite");
  const controls = document.createElement("div");
  controls.className = "pick-controls";
  const modeLabel = document.createElement("label");
  const modeText = document.createElement("span");
  modeText.textContent = t("pages.pick.as");
  const mode = document.createElement("select");
  mode.id = "pick-mode";
  for (const m of MODES) mode.add(new Option(t(`pages.pick.mode.${m}`), m));
  modeLabel.append(modeText, mode);
  const clear = document.createElement("button");
  clear.type = "button";
  clear.className = "secondary";
  clear.id = "pick-clear";
  clear.textContent = t("pages.pick.clear");
  controls.append(modeLabel, clear);
  const palette = document.createElement("div");
  palette.className = "palette";
  palette.id = "palette";
  const rows = [ALL_FACES.slice(0, 9), ALL_FACES.slice(9, 18), ALL_FACES.slice(18, 27), ALL_FACES.slice(27, 34),
    ALL_FACES.slice(34)];
  // on a phone one group at a time (a tab per group, shown by its first tile), so each face is a big target
  const tabs = document.createElement("div");
  tabs.className = "palette-tabs";
  tabs.setAttribute("role", "tablist");
  const showGroup = (k) => {
    palette.dataset.group = String(k);
    tabs.querySelectorAll("button").forEach((b, i) => b.setAttribute("aria-selected", String(i === k)));
  };
  rows.forEach((row, k) => {
    const tab = button("palette-tab", t(`pages.pick.group.${k}`), tileElement(row[0], { size: "sm" }));
    tab.setAttribute("role", "tab");
    tab.addEventListener("click", () => showGroup(k));
    tabs.append(tab);
  });
  palette.append(tabs);
  for (const [k, row] of rows.entries()) {
    const div = document.createElement("div");
    div.className = "palette-row";
    div.dataset.group = String(k);
    for (const tile of row) {
      const b = button("pick-tile", t("pages.pick.add", { tile: tileName(tile) }), tileElement(tile, { size: "sm" }));
      b.dataset.tile = tile;
      b.addEventListener("click", () => add(tile));
      div.append(b);
    }
    palette.append(div);
  }
  root.append(shown, controls, palette);
  showGroup(0);

  function commit() {
    input.value = formatHand(hand);
    draw();
    onChange();
  }

  function add(tile) {
    const a = addition(tile, mode.value);
    if (!a) return;
    if (a.bonus) hand.bonus = [...hand.bonus, ...a.bonus];
    if (a.concealed) hand.concealed = [...hand.concealed, ...a.concealed];
    if (a.meld) hand.melds = [...hand.melds, a.meld];
    if (a.winning) hand.winning = a.winning;
    commit();
  }

  function group(label, tiles, remove, cls) {
    const span = document.createElement("span");
    span.className = `picked-group ${cls}`;
    const caption = document.createElement("span");
    caption.className = "picked-label";
    caption.textContent = label;
    span.append(caption);
    const inner = document.createElement("span");
    inner.className = "tiles";
    tiles.forEach((tile, i) => inner.append(remove(tile, i)));
    span.append(inner);
    shown.append(span);
  }

  function draw() {
    shown.innerHTML = "";
    const tileButton = (tile, onTap, cls = "") => {  // a tile of the hand: tap to take it out
      const b = button(`picked-tile ${cls}`, t("pages.pick.remove", { tile: tileName(tile) }), tileElement(tile, { size: "sm" }));
      b.dataset.tile = tile;
      b.addEventListener("click", onTap);
      return b;
    };
    const concealed = sortTiles(hand.concealed);
    group(t("pages.pick.hand", { n: concealed.length + 3 * hand.melds.length }), concealed, (tile) =>
      tileButton(tile, () => {
        const i = hand.concealed.indexOf(tile);
        hand.concealed = hand.concealed.filter((_x, k) => k !== i);
        commit();
      }), "concealed");
    hand.melds.forEach((m, i) => {
      const b = button(`picked-meld${m.concealed ? " concealed" : ""}`,
        t("pages.pick.remove_set", { tiles: m.tiles.map(tileName).join(", ") }), document.createElement("span"));
      b.firstChild.className = "tiles";
      for (const tile of m.tiles) b.firstChild.append(tileElement(tile, { size: "sm" }));
      b.addEventListener("click", () => {
        hand.melds = hand.melds.filter((_x, k) => k !== i);
        commit();
      });
      shown.append(b);
    });
    if (hand.winning) {
      group(t("pages.pick.winning"), [hand.winning], (tile) => tileButton(tile, () => {
        hand.winning = null;
        commit();
      }, "winning"), "winning");
    }
    if (hand.bonus.length) {
      group(t("pages.pick.bonus"), sortTiles(hand.bonus), (tile) => tileButton(tile, () => {
        const i = hand.bonus.indexOf(tile);
        hand.bonus = hand.bonus.filter((_x, k) => k !== i);
        commit();
      }), "bonus");
    }
    // a face with all its copies used cannot be added again; a chow cannot start at 8, 9 or an honour
    const used = new Map();
    for (const tile of allTiles(hand)) used.set(tile, (used.get(tile) || 0) + 1);
    palette.querySelectorAll(".pick-tile").forEach((b) => {
      const tile = b.dataset.tile;
      const a = addition(tile, mode.value);
      const need = !a ? 99 : a.meld ? a.meld.tiles.filter((x) => x === tile).length : 1;
      const copies = isBonus(tile) ? 1 : 4;
      const over = a && a.meld && mode.value === "chow" &&
        a.meld.tiles.some((x) => (used.get(x) || 0) >= copies);
      b.disabled = !a || over || (used.get(tile) || 0) + need > copies;
    });
  }

  function refresh() {
    try {
      const parsed = parseHand(input.value);
      hand = { concealed: parsed.concealed, melds: parsed.melds, winning: parsed.winning, bonus: parsed.bonus };
      root.classList.remove("stale");
    } catch (_err) {
      root.classList.add("stale");  // the typed notation does not parse (the preview says why)
    }
    draw();
  }

  clear.addEventListener("click", () => {
    hand = { concealed: [], melds: [], winning: null, bonus: [] };
    commit();
  });
  mode.addEventListener("change", draw);
  input.addEventListener("input", refresh);
  refresh();
  return { refresh };
}
