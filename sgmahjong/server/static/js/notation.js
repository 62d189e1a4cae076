// Tile and hand notation (RULES.md §1) for display: the reverse of the server's formatters.
//
//   parseTiles("123m EE5p")  -> ["1m","2m","3m","E","E","5p"]
//   parseHand("23s55p [123m] {5555p} +4s /1f1a")
//       -> {concealed: [...], melds: [{tiles, concealed}], winning: "4s" | null, bonus: [...]}

const ALIASES = { Rd: "C", Gd: "F", Wd: "P" };

/** Tiles of a tile string (throws Error on a character it does not know). */
export function parseTiles(text) {
  const out = [];
  let digits = [];
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (/\s/.test(ch)) continue;
    if (/[0-9]/.test(ch)) {
      digits.push(ch);
      continue;
    }
    if ("mpsfa".includes(ch)) {
      for (const d of digits) out.push(d + ch);
      digits = [];
      continue;
    }
    const alias = text.slice(i, i + 2);
    if (ALIASES[alias]) {
      out.push(ALIASES[alias]);
      i += 1;
      continue;
    }
    if ("ESWNCFP".includes(ch)) {
      out.push(ch);
      continue;
    }
    throw notationError(`unknown tile character ${ch}`, "calc.bad_tile", { ch });
  }
  if (digits.length) {
    throw notationError(`digits ${digits.join("")} have no suit letter`, "calc.no_suit", { digits: digits.join("") });
  }
  return out;
}

/** The parts of a hand string. */
/** An Error with the English message and the strings key (+ params) that says it in the page's language. */
function notationError(message, key, params) {
  const err = new Error(message);
  err.key = key;
  err.params = params;
  return err;
}

export function parseHand(text) {
  const hand = { concealed: [], melds: [], winning: null, bonus: [] };
  let rest = text;
  const slash = rest.indexOf("/");
  if (slash >= 0) {
    hand.bonus = parseTiles(rest.slice(slash + 1));
    rest = rest.slice(0, slash);
  }
  const plus = rest.indexOf("+");
  if (plus >= 0) {
    const win = parseTiles(rest.slice(plus + 1));
    hand.winning = win.length ? win[0] : null;
    rest = rest.slice(0, plus);
  }
  const meldRe = /\[([^\]]*)\]|\{([^}]*)\}/g;
  let m;
  while ((m = meldRe.exec(rest)) !== null) {
    if (m[1] !== undefined) hand.melds.push({ tiles: parseTiles(m[1]), concealed: false });
    else hand.melds.push({ tiles: parseTiles(m[2]), concealed: true });
  }
  hand.concealed = parseTiles(rest.replace(meldRe, " "));
  return hand;
}

/** Numeric rank and suit of a suited tile ("5p" -> [5, "p"]); null for others. */
export function suited(tile) {
  if (tile.length === 2 && "mps".includes(tile[1])) return [Number(tile[0]), tile[1]];
  return null;
}
