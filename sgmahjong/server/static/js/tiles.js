// Tile art: an SVG face for each of the 46 faces of the Singapore set (RULES.md §1), drawn here.
//
//   tileSVG("5p")            -> SVG markup string (viewBox 0 0 60 80)
//   tileElement("5p", opts)  -> <span class="tile" data-tile="5p"> holding the SVG
//   backElement(opts)        -> a face-down tile
//   sortTiles(list)          -> tiles in display order (m, p, s, winds, dragons, flowers, animals)
//   tileName("5p")           -> "5 Dots" (for titles and screen readers)
//
// Chinese glyphs use the bundled subset font "SGMJ CJK" (fonts/README.md) so faces look the same on
// every device.
import { has, t } from "./i18n.js";

const W = 60;
const H = 80;
const INK_RED = "#c0262d";
const INK_GREEN = "#15803d";
const INK_BLUE = "#1d4ed8";
const INK_BLACK = "#1f2937";
const FONT = "'SGMJ CJK','Noto Serif CJK TC','Noto Serif CJK SC','Songti SC','SimSun',serif";

const NUMERALS = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONOURS = {
  E: ["東", INK_BLACK, "East"],
  S: ["南", INK_BLACK, "South"],
  W: ["西", INK_BLACK, "West"],
  N: ["北", INK_BLACK, "North"],
  C: ["中", INK_RED, "Red dragon"],
  F: ["發", INK_GREEN, "Green dragon"],
};
const FLOWERS = [
  ["梅", "Plum"], ["蘭", "Orchid"], ["菊", "Chrysanthemum"], ["竹", "Bamboo"],
  ["春", "Spring"], ["夏", "Summer"], ["秋", "Autumn"], ["冬", "Winter"],
];
const ANIMALS = [["猫", "Cat"], ["鼠", "Rat"], ["雞", "Rooster"], ["蜈蚣", "Centipede"]];
const SUIT_NAMES = { m: "Characters", p: "Dots", s: "Bamboo" };

/** All 46 faces in display order. */
export const ALL_FACES = [
  ..."123456789".split("").map((d) => d + "m"),
  ..."123456789".split("").map((d) => d + "p"),
  ..."123456789".split("").map((d) => d + "s"),
  "E", "S", "W", "N", "C", "F", "P",
  ..."12345678".split("").map((d) => d + "f"),
  ..."1234".split("").map((d) => d + "a"),
];
const ORDER = new Map(ALL_FACES.map((t, i) => [t, i]));

/** Display/sort index of a tile (unknown tiles sort last). */
export function tileIndex(tile) {
  return ORDER.has(tile) ? ORDER.get(tile) : 99;
}

/** A copy of `tiles` sorted in display order. */
export function sortTiles(tiles) {
  return [...tiles].sort((a, b) => tileIndex(a) - tileIndex(b));
}

/** Name of a tile in the page's language, e.g. "5 Dots" / "5筒", "East wind", "Plum (flower 1)". */
export function tileName(tile) {
  const suit = tile.slice(-1);
  if (SUIT_NAMES[suit] && tile.length === 2) return t(`tile.suit.${suit}`, { n: tile[0] });
  return has(`tile.${tile}`) ? t(`tile.${tile}`) : tile;
}

// -- drawing helpers -------------------------------------------------------------------------------

function text(x, y, size, fill, glyph, extra = "") {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}" text-anchor="middle" ` +
    `dominant-baseline="central" font-family="${FONT}" font-weight="700" ${extra}>${glyph}</text>`;
}

function dot(x, y, r, color) {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="${color}"/>` +
    `<circle cx="${x}" cy="${y}" r="${(r * 0.62).toFixed(2)}" fill="#fffdf5"/>` +
    `<circle cx="${x}" cy="${y}" r="${(r * 0.38).toFixed(2)}" fill="${color}"/>`;
}

const DOT_LAYOUTS = {
  1: [[30, 40, 17, "R"]],
  2: [[30, 22, 10, "G"], [30, 58, 10, "B"]],
  3: [[15, 17, 9, "B"], [30, 40, 9, "R"], [45, 63, 9, "G"]],
  4: [[18, 23, 9, "B"], [42, 23, 9, "G"], [18, 57, 9, "G"], [42, 57, 9, "B"]],
  5: [[17, 19, 8.5, "B"], [43, 19, 8.5, "G"], [30, 40, 8.5, "R"], [17, 61, 8.5, "G"], [43, 61, 8.5, "B"]],
  6: [[19, 17, 8, "G"], [41, 17, 8, "G"], [19, 40, 8, "R"], [41, 40, 8, "R"], [19, 63, 8, "R"],
    [41, 63, 8, "R"]],
  7: [[13, 12, 6.5, "G"], [30, 21, 6.5, "G"], [47, 30, 6.5, "G"], [19, 48, 7, "R"], [41, 48, 7, "R"],
    [19, 66, 7, "R"], [41, 66, 7, "R"]],
  8: [[19, 13, 7, "B"], [41, 13, 7, "B"], [19, 31, 7, "B"], [41, 31, 7, "B"], [19, 49, 7, "B"],
    [41, 49, 7, "B"], [19, 67, 7, "B"], [41, 67, 7, "B"]],
  9: [[14, 17, 7, "B"], [30, 17, 7, "B"], [46, 17, 7, "B"], [14, 40, 7, "R"], [30, 40, 7, "R"],
    [46, 40, 7, "R"], [14, 63, 7, "G"], [30, 63, 7, "G"], [46, 63, 7, "G"]],
};
const COLORS = { R: INK_RED, G: INK_GREEN, B: INK_BLUE };

function dotsFace(n) {
  let out = DOT_LAYOUTS[n].map(([x, y, r, c]) => dot(x, y, r, COLORS[c])).join("");
  if (n === 1) {
    // the big one-dot: a flower ring around the centre
    for (let i = 0; i < 8; i += 1) {
      const a = (i * Math.PI) / 4;
      out += `<circle cx="${(30 + 21 * Math.cos(a)).toFixed(1)}" cy="${(40 + 21 * Math.sin(a)).toFixed(1)}" ` +
        `r="2.4" fill="${INK_GREEN}"/>`;
    }
  }
  return out;
}

function stick(x, y, h, color) {
  // one bamboo stick centred on (x, y), height h
  const top = y - h / 2;
  return `<rect x="${x - 3.2}" y="${top}" width="6.4" height="${h}" rx="3" fill="${color}"/>` +
    `<rect x="${x - 4}" y="${y - 1.3}" width="8" height="2.6" rx="1.2" fill="${color}"/>` +
    `<line x1="${x}" y1="${top + 2}" x2="${x}" y2="${top + h - 2}" stroke="#fffdf5" stroke-width="1" ` +
    `opacity="0.55"/>`;
}

const STICK_LAYOUTS = {
  2: [[30, 23, "G"], [30, 57, "G"]],
  3: [[30, 23, "G"], [19, 57, "G"], [41, 57, "G"]],
  4: [[19, 23, "G"], [41, 23, "B"], [19, 57, "B"], [41, 57, "G"]],
  5: [[15, 23, "G"], [45, 23, "B"], [30, 40, "R"], [15, 57, "B"], [45, 57, "G"]],
  6: [[14, 23, "G"], [30, 23, "G"], [46, 23, "G"], [14, 57, "B"], [30, 57, "B"], [46, 57, "B"]],
  7: [[30, 14, "R"], [14, 42, "G"], [30, 42, "B"], [46, 42, "G"], [14, 66, "G"], [30, 66, "B"], [46, 66, "G"]],
  8: [[11, 23, "G"], [23, 23, "G"], [37, 23, "G"], [49, 23, "G"], [11, 57, "B"], [23, 57, "B"],
    [37, 57, "B"], [49, 57, "B"]],
  9: [[14, 16, "G"], [30, 16, "R"], [46, 16, "B"], [14, 40, "G"], [30, 40, "R"], [46, 40, "B"],
    [14, 64, "G"], [30, 64, "R"], [46, 64, "B"]],
};

function bambooFace(n) {
  if (n === 1) return birdFace();
  const h = n >= 7 ? 19 : 27;
  return STICK_LAYOUTS[n].map(([x, y, c]) => stick(x, y, h, COLORS[c])).join("");
}

function birdFace() {
  // the one-bamboo bird (a peacock on a branch)
  return `<path d="M14 60 Q30 70 48 58" stroke="${INK_GREEN}" stroke-width="3" fill="none"/>` +
    `<path d="M20 50 Q8 62 12 74 M24 52 Q18 66 22 76 M28 53 Q28 66 32 76" stroke="${INK_GREEN}" ` +
    `stroke-width="2.2" fill="none"/>` +
    `<ellipse cx="32" cy="42" rx="13" ry="10" fill="${INK_GREEN}"/>` +
    `<path d="M24 40 Q32 34 42 42 Q34 48 24 40Z" fill="${INK_BLUE}"/>` +
    `<circle cx="42" cy="24" r="7" fill="${INK_RED}"/>` +
    `<path d="M40 30 L38 34 L44 33Z" fill="${INK_GREEN}"/>` +
    `<path d="M48 23 L55 25 L48 27Z" fill="#d97706"/>` +
    `<circle cx="44" cy="22" r="1.6" fill="#fffdf5"/>` +
    `<path d="M40 17 L38 10 M43 17 L44 9 M46 18 L50 11" stroke="${INK_RED}" stroke-width="1.6"/>` +
    `<line x1="30" y1="51" x2="28" y2="58" stroke="#92400e" stroke-width="2"/>` +
    `<line x1="36" y1="51" x2="37" y2="58" stroke="#92400e" stroke-width="2"/>`;
}

function charactersFace(n) {
  return text(30, 22, 27, INK_BLUE, NUMERALS[n - 1]) + text(30, 56, 32, INK_RED, "萬");
}

function whiteDragon() {
  return `<rect x="11" y="13" width="38" height="54" rx="3" fill="none" stroke="${INK_BLUE}" stroke-width="3.5"/>` +
    `<rect x="17" y="19" width="26" height="42" rx="2" fill="none" stroke="${INK_BLUE}" stroke-width="1.6"/>`;
}

function rosette(x, y, r, color) {
  let out = "";
  for (let i = 0; i < 5; i += 1) {
    const a = (i * 2 * Math.PI) / 5 - Math.PI / 2;
    out += `<circle cx="${(x + r * Math.cos(a)).toFixed(1)}" cy="${(y + r * Math.sin(a)).toFixed(1)}" ` +
      `r="${(r * 0.7).toFixed(1)}" fill="${color}" opacity="0.8"/>`;
  }
  return out + `<circle cx="${x}" cy="${y}" r="${(r * 0.55).toFixed(1)}" fill="#f59e0b"/>`;
}

function flowerFace(n) {
  const [glyph] = FLOWERS[n - 1];
  const color = n <= 4 ? INK_RED : INK_BLUE;
  const seatNo = ((n - 1) % 4) + 1;
  return text(12, 12, 15, color, String(seatNo), "font-family=\"sans-serif\"") +
    rosette(47, 13, 5, n <= 4 ? "#f472b6" : "#60a5fa") +
    text(30, 45, 34, color, glyph) +
    `<path d="M10 72 Q30 62 50 72" stroke="${INK_GREEN}" stroke-width="2.5" fill="none"/>`;
}

function catShape() {
  return `<circle cx="30" cy="30" r="15" fill="#d97706"/>` +
    `<path d="M17 22 L17 8 L27 17Z M43 22 L43 8 L33 17Z" fill="#d97706"/>` +
    `<circle cx="24" cy="28" r="2.6" fill="${INK_BLACK}"/><circle cx="36" cy="28" r="2.6" fill="${INK_BLACK}"/>` +
    `<path d="M28 34 L32 34 L30 37Z" fill="${INK_RED}"/>` +
    `<path d="M10 33 L22 35 M10 38 L22 37 M50 33 L38 35 M50 38 L38 37" stroke="${INK_BLACK}" stroke-width="1"/>`;
}

function ratShape() {
  return `<ellipse cx="32" cy="32" rx="18" ry="11" fill="#6b7280"/>` +
    `<circle cx="16" cy="27" r="7" fill="#6b7280"/><circle cx="17" cy="19" r="5" fill="#9ca3af"/>` +
    `<circle cx="12" cy="26" r="1.6" fill="${INK_BLACK}"/><circle cx="9" cy="30" r="1.6" fill="${INK_RED}"/>` +
    `<path d="M50 34 Q60 40 52 48 Q46 52 52 56" stroke="#6b7280" stroke-width="2" fill="none"/>` +
    `<path d="M24 42 L22 47 M38 42 L40 47" stroke="#6b7280" stroke-width="2"/>`;
}

function roosterShape() {
  return `<ellipse cx="28" cy="34" rx="13" ry="11" fill="#f59e0b"/>` +
    `<path d="M38 30 Q56 16 52 40 Q48 34 40 40Z" fill="${INK_GREEN}"/>` +
    `<circle cx="19" cy="19" r="7" fill="#f59e0b"/>` +
    `<path d="M14 13 Q16 5 19 11 Q21 4 24 12Z" fill="${INK_RED}"/>` +
    `<path d="M12 19 L6 21 L12 23Z" fill="#92400e"/><circle cx="17" cy="18" r="1.5" fill="${INK_BLACK}"/>` +
    `<path d="M14 24 Q13 29 16 28" fill="${INK_RED}" stroke="${INK_RED}"/>` +
    `<path d="M26 45 L25 52 M31 45 L32 52" stroke="#92400e" stroke-width="2"/>`;
}

function centipedeShape() {
  let out = "";
  for (let i = 0; i < 6; i += 1) {
    const x = 10 + i * 8;
    const y = 30 + (i % 2 ? 4 : -2);
    out += `<path d="M${x} ${y - 4} L${x - 3} ${y - 12} M${x} ${y + 4} L${x - 3} ${y + 12}" ` +
      `stroke="#7c2d12" stroke-width="1.6"/>` +
      `<circle cx="${x}" cy="${y}" r="5" fill="${i === 5 ? INK_RED : "#b45309"}"/>`;
  }
  return out + `<path d="M54 28 L58 20 M54 30 L60 26" stroke="#7c2d12" stroke-width="1.4"/>`;
}

export const ANIMAL_SHAPES = [catShape, ratShape, roosterShape, centipedeShape];

function animalFace(n) {
  const [glyph] = ANIMALS[n - 1];
  const size = glyph.length > 1 ? 16 : 20;
  return ANIMAL_SHAPES[n - 1]() + text(30, 66, size, INK_BLACK, glyph);
}

function faceContent(tile) {
  const suit = tile.slice(-1);
  const n = Number(tile[0]);
  if (suit === "p") return dotsFace(n);
  if (suit === "s") return bambooFace(n);
  if (suit === "m") return charactersFace(n);
  if (suit === "f") return flowerFace(n);
  if (suit === "a") return animalFace(n);
  if (tile === "P") return whiteDragon();
  if (HONOURS[tile]) return text(30, 42, 40, HONOURS[tile][1], HONOURS[tile][0]);
  return text(30, 40, 20, INK_BLACK, "?");
}

const CACHE = new Map();
const SVG_NS = "http://www.w3.org/2000/svg";
let sprite = null; // <svg> holding one <symbol> per face drawn so far

/** The drawing of a tile face: its shapes (the tile's background included). */
function faceShapes(tile) {
  return `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="6" fill="#fffdf5"/>` + faceContent(tile);
}

/** SVG markup of a tile face: a <use> of the face's symbol, drawn once per page (a table shows a
 * hundred tiles; each is then two elements, not up to forty). */
export function tileSVG(tile) {
  if (!CACHE.has(tile)) {
    const id = `sgmj-face-${String(tile).replace(/[^\w-]/g, "_")}`;
    if (!sprite) {
      sprite = document.createElementNS(SVG_NS, "svg");
      sprite.setAttribute("aria-hidden", "true");
      sprite.setAttribute("width", "0");
      sprite.setAttribute("height", "0");
      sprite.style.position = "absolute";
      document.body.prepend(sprite);
    }
    const symbol = document.createElementNS(SVG_NS, "symbol");
    symbol.id = id;
    symbol.setAttribute("viewBox", `0 0 ${W} ${H}`);
    symbol.innerHTML = faceShapes(tile);
    sprite.append(symbol);
    CACHE.set(tile,
      `<svg viewBox="0 0 ${W} ${H}" xmlns="${SVG_NS}" aria-hidden="true"><use href="#${id}"/></svg>`);
  }
  return CACHE.get(tile);
}

/** A face-up tile element: <span class="tile" data-tile="5p">. opts: size ("sm"|"md"|"lg"), title. */
export function tileElement(tile, opts = {}) {
  const el = document.createElement("span");
  el.className = "tile" + (opts.size ? ` tile-${opts.size}` : "") + (opts.extraClass ? ` ${opts.extraClass}` : "");
  el.dataset.tile = tile;
  el.title = tileName(tile);
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", tileName(tile));
  el.append(faceNode(tile));
  return el;
}

const NODES = new Map(); // tile -> its parsed <svg> (one per face), cloned for each tile drawn

/** A new <svg> element of the face of `tile` (a clone: parsing markup for every tile of a table is
 * most of the cost of drawing it on a phone). */
function faceNode(tile) {
  let node = NODES.get(tile);
  if (!node) {
    const holder = document.createElement("template");
    holder.innerHTML = tileSVG(tile);
    node = holder.content.firstChild;
    NODES.set(tile, node);
  }
  return node.cloneNode(true);
}

/** A face-down tile. opts.size as tileElement; opts.side true for a tile seen from the side. */
export function backElement(opts = {}) {
  const el = document.createElement("span");
  el.className = "tile back" + (opts.size ? ` tile-${opts.size}` : "") + (opts.side ? " side" : "");
  el.setAttribute("aria-hidden", "true");
  return el;
}
