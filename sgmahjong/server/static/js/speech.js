// Words for the ear, in the page's language: tile names as players say them (一万 / 1 Character,
// 东风 / East Wind, 梅 / Plum; or the short forms: 5 bam, 东), a hand grouped by suit, a seat as its wind
// and name ("West, Ah Beng"), payments as sentences, and the screen-reader preferences kept in this
// browser. Pure functions of what they are given (the player's own view): no DOM.
//
//   sayTile("5s") -> "5 Bamboo" / "五索"        sayRun(["3s","4s","5s"]) -> "3 4 5 Bamboo" / "三四五索"
//   sayHandGroups(["2m","3m","5p","E"]) -> "Characters: 2, 3; Dots: 5; Honours: East Wind"
//   paymentSentences([4,-2,-1,-1], seatPhrase) -> ["South, Bo, pays East, Ann 2.", ...]
import { has, lang, t } from "./i18n.js";
import { sortTiles } from "./tiles.js";

const PREFS_KEY = "sgmahjong:a11y";
/** verbosity: "all" (every discard, claim, bonus, win, payment) or "mine" (only what concerns me). */
export const A11Y_DEFAULTS = { verbosity: "all", short: false, srMode: false };
export const VERBOSITIES = ["all", "mine"];
const SUITS = ["m", "p", "s"];

export function loadPrefs() {
  try {
    const saved = JSON.parse(localStorage.getItem(PREFS_KEY) || "{}");
    const out = { ...A11Y_DEFAULTS, ...(saved && typeof saved === "object" ? saved : {}) };
    if (!VERBOSITIES.includes(out.verbosity)) out.verbosity = A11Y_DEFAULTS.verbosity;
    out.short = Boolean(out.short);
    out.srMode = Boolean(out.srMode);
    return out;
  } catch (_err) {
    return { ...A11Y_DEFAULTS };
  }
}

export function savePrefs(prefs) {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch (_err) {
    /* private mode: the preferences last as long as the page */
  }
}

let shortNames = false;
/** Short tile names (5 bam, 东) from now on. */
export function setShortNames(on) {
  shortNames = Boolean(on);
}

function numeral(d) {
  return t("say.numerals")[d - 1] || String(d);
}

/** A tile's spoken name. */
export function sayTile(tile) {
  if (!tile) return "";
  const suit = tile.slice(-1);
  if (tile.length === 2 && SUITS.includes(suit)) {
    const d = Number(tile[0]);
    if (shortNames) return t(`say.short.${suit}`, { n: d });
    return t(d === 1 ? `say.suit.${suit}` : `say.suit.${suit}_n`, { n: numeral(d) });
  }
  if (shortNames && has(`say.short.${tile}`)) return t(`say.short.${tile}`);
  return has(`say.${tile}`) ? t(`say.${tile}`) : tile;
}

/** Several tiles, named one by one ("Plum, Orchid"). */
export function sayTiles(tiles) {
  return (tiles || []).map(sayTile).join(t("say.list_sep"));
}

/** A run of one suit ("3 4 5 Bamboo" / "三四五索"); other lists tile by tile. */
export function sayRun(tiles) {
  const list = tiles || [];
  const suit = list.length ? list[0].slice(-1) : "";
  if (!SUITS.includes(suit) || list.some((x) => x.length !== 2 || x.slice(-1) !== suit)) return sayTiles(list);
  const zh = lang() === "zh";
  const nums = list.map((x) => (zh && !shortNames ? numeral(Number(x[0])) : x[0])).join(zh ? "" : " ");
  return zh ? `${nums}${t(`say.suit_name.${suit}`)}` : `${nums} ${t(`say.suit_name.${suit}`)}`;
}

/** "name: body" with the language's colon. */
export function labelled(name, body) {
  return lang() === "zh" ? `${name}：${body}` : `${name}: ${body}`;
}

/** A hand grouped by suit: "Characters: 2, 3, 4; Dots: 5, 5; Honours: East Wind". */
export function sayHandGroups(tiles) {
  const sorted = sortTiles(tiles || []);
  const groups = [];
  for (const suit of SUITS) {
    const own = sorted.filter((x) => x.length === 2 && x.slice(-1) === suit);
    if (own.length) {
      const nums = own.map((x) => (lang() === "zh" ? numeral(Number(x[0])) : x[0]));
      groups.push(labelled(t(`say.suit_name.${suit}`), nums.join(t("say.list_sep"))));
    }
  }
  const honours = sorted.filter((x) => !(x.length === 2 && SUITS.includes(x.slice(-1))));
  if (honours.length) {
    groups.push(labelled(t("say.honours"), sayTiles(honours)));
  }
  return groups.join(t("say.group_sep"));
}

/**
 * The tiles of `tiles` with no partner: no other copy and, in a suit, no tile of the same suit within
 * two (so no pair, run or run-in-waiting can use it). Honours count as isolated when single.
 */
export function isolatedTiles(tiles) {
  const list = tiles || [];
  const count = new Map();
  for (const x of list) count.set(x, (count.get(x) || 0) + 1);
  const out = [];
  for (const x of sortTiles([...count.keys()])) {
    if (count.get(x) > 1) continue;
    const suit = x.slice(-1);
    if (x.length === 2 && SUITS.includes(suit)) {
      const d = Number(x[0]);
      const near = [-2, -1, 1, 2].some((k) => count.has(`${d + k}${suit}`));
      if (near) continue;
    }
    out.push(x);
  }
  return out;
}

/**
 * One sentence per transfer of `amounts` (what each seat won or paid, in seat order): each payer pays
 * the winners in turn. seatPhrase(seat, object) names a seat ("East, Ann"; the viewer as "You"/"you").
 */
export function paymentSentences(amounts, seatPhrase, mySeat = null) {
  if (!Array.isArray(amounts)) return [];
  const payers = amounts.map((a, s) => [s, -a]).filter(([, a]) => a > 0);
  const payees = amounts.map((a, s) => [s, a]).filter(([, a]) => a > 0);
  const out = [];
  let j = 0;
  for (const payer of payers) {
    while (payer[1] > 0 && j < payees.length) {
      const n = Math.min(payer[1], payees[j][1]);
      const payee = seatPhrase(payees[j][0], true);
      out.push(payer[0] === mySeat
        ? t("say.pays_me", { payee, n })
        : t("say.pays", { payer: seatPhrase(payer[0], false), payee, n }));
      payer[1] -= n;
      payees[j][1] -= n;
      if (payees[j][1] === 0) j += 1;
    }
  }
  return out;
}
