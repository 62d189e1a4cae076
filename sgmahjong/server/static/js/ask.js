// Asking the table: single keys, each answered in one announcement, from the player's own view only
// (their hand, what everyone has shown, the wall count, the scores, the timer, their own hints).
//
//   answerKey(ev, q) -> the answer's words, null (a key of ours with nothing to say), or undefined
//                       (not one of these keys: the table's own keys handle it)
//   q: {view, seat, timer, hints, lastDiscard, canGoNext, seatName(seat), windOf(seat), focusedTile(), announcer,
//       toggleVerbosity()}
import { t } from "./i18n.js";
import { myHand } from "./moves.js";
import { unseen } from "./tracker.js";
import { pileOf } from "./felt.js";
import { tileName } from "./tiles.js";
import { isolatedTiles, sayHandGroups, sayRun, sayTile, sayTiles } from "./speech.js";
import { joinSentences, promptWords, seatPhraser } from "./announce.js";

const WINDS = ["E", "S", "W", "N"];

/** The keys that ask the table: [key, meaning key] (the help answer, the side panel, the keys page). */
export const ASK_KEYS = [
  ["A", "keys.ask.hand"],
  ["S", "keys.ask.waits"],
  ["Shift+E, Shift+S, Shift+W, Shift+N", "keys.ask.seat"],
  ["D", "keys.ask.last"],
  ["U", "keys.ask.unseen"],
  ["/", "keys.ask.box"],
  ["L", "keys.ask.wall"],
  ["M", "keys.ask.scores"],
  ["Y", "keys.ask.turn"],
  ["I", "keys.ask.time"],
  ["O", "keys.ask.options"],
  [".", "keys.ask.repeat"],
  ["V", "keys.ask.verbosity"],
  ["?", "keys.ask.help"],
  ["←, →, Home, End", "keys.ask.arrows"],
  ["Enter", "keys.ask.enter"],
];

const list = (items) => items.join(t("say.list_sep"));

function meldWords(m) {
  const tile = sayTile(m.tiles && m.tiles[0]);
  if (m.kind === "chow") return t("ask.set.chow", { tiles: sayRun(m.tiles) });
  if (m.kind === "kong" && m.concealed) return m.tiles && m.tiles[0] ? t("ask.set.concealed_kong", { tile }) : t("ask.set.hidden_kong");
  return t(m.kind === "kong" ? "ask.set.kong" : "ask.set.pong", { tile });
}

function setsAndBonus(sv) {
  const parts = [];
  if ((sv.melds || []).length) parts.push(t("ask.sets", { list: list(sv.melds.map(meldWords)) }));
  if ((sv.bonus || []).length) parts.push(t("ask.bonus", { list: sayTiles(sv.bonus) }));
  return parts;
}

/** A: my hand, grouped by suit, then the drawn tile, my sets and bonus tiles. */
export function handAnswer(q) {
  const v = q.view;
  if (q.seat === null || q.seat === undefined || !v.seats[q.seat]) return t("ask.no_hand");
  const sv = v.seats[q.seat];
  const entries = myHand(sv);
  const parts = [sayHandGroups(entries.filter((x) => !x.drawn).map((x) => x.tile))];
  const drawn = entries.find((x) => x.drawn);
  if (drawn) parts.push(t("ask.hand_drawn", { tile: sayTile(drawn.tile) }));
  parts.push(...setsAndBonus(sv));
  return t("ask.hand", { groups: parts.filter(Boolean).join(t("say.group_sep")) });
}

/** S: ready and on what (copies unseen), or how far from ready; then the isolated tiles. */
export function waitsAnswer(q) {
  const v = q.view;
  if (q.seat === null || q.seat === undefined || !v.seats[q.seat]) return t("ask.no_hand");
  const h = q.hints && q.hints.hand_number === v.hand_number ? q.hints : null;
  let status;
  if (!h) status = t("ask.no_hints");
  else if (h.drawn_wins || h.shanten < 0) status = t("ask.complete");
  else if (h.shanten === 0) {
    const waits = (h.waits || []).map((w) => t("ask.wait", { tile: sayTile(w.tile), n: w.unseen }));
    status = waits.length ? t("ask.ready", { list: list(waits) }) : t("ask.ready_dead");
  } else status = h.shanten === 1 ? t("ask.shanten_1") : t("ask.shanten", { n: h.shanten });
  const isolated = isolatedTiles(myHand(v.seats[q.seat]).map((x) => x.tile));
  const lone = isolated.length ? t("ask.isolated", { list: sayTiles(isolated) }) : t("ask.no_isolated");
  return joinSentences(status, lone);
}

/** Shift+wind: that seat's discards in order (those taken said so), sets, bonus tiles, tiles in hand. */
export function seatAnswer(q, wind) {
  const v = q.view;
  const who = seatPhraser({ me: q.seat, seatName: q.seatName, windOf: q.windOf });
  const seat = [0, 1, 2, 3].find((s) => q.windOf(s) === wind);
  if (seat === undefined || !v.seats[seat]) return t("ask.no_seat", { wind: t(`wind.${wind}`) });
  const sv = v.seats[seat];
  const pile = pileOf(sv).map((p) => (p.by === null ? sayTile(p.tile)
    : t("table.taken_by", { tile: sayTile(p.tile), who: who(p.by, true) })));
  const parts = [pile.length ? t("ask.seat.discards", { list: list(pile) }) : t("ask.seat.no_discards"),
    ...setsAndBonus(sv)];
  if (seat !== q.seat && !v.result) parts.push(t("ask.seat.concealed", { n: sv.concealed_count ?? 0 }));
  return t("ask.seat", { who: who(seat), parts: parts.join(t("say.group_sep")) });
}

/** The latest discard: the view's while claims are open, else the last one the events told of. */
function lastDiscard(q) {
  return q.view.last_discard || q.lastDiscard || null;
}

/** The copies of `tile` not yet seen from my seat (4 less my own, every discard and every set). */
export function unseenAnswer(q, tile) {
  const n = unseen(q.view).get(tile);
  if (n === undefined) return t("ask.unseen_unknown", { text: tileName(tile) });
  return t("ask.unseen", { tile: sayTile(tile), n });
}

/** The tile a player typed ("5s", "5 bamboo", "五索", "东风") -> notation, or null. */
export function parseTileText(text) {
  const raw = String(text || "").trim();
  if (/^[1-9][mps]$/i.test(raw)) return raw.toLowerCase();
  if (/^[eswncfp]$/i.test(raw)) return raw.toUpperCase();
  const want = raw.toLowerCase().replace(/\s+/g, " ");
  const kinds = [...unseen({ seats: [] }).keys()];
  for (const tile of kinds) {
    const names = [sayTile(tile), tileName(tile)];
    if (names.some((n) => n.toLowerCase() === want)) return tile;
  }
  return null;
}

function wallAnswer(q) {
  return t("ask.wall", { n: q.view.wall_remaining ?? 0 });
}

function scoresAnswer(q) {
  const v = q.view;
  const who = seatPhraser({ me: q.seat, seatName: q.seatName, windOf: q.windOf });
  const ledger = v.match_ledger || v.ledger || [0, 0, 0, 0];
  const order = [0, 1, 2, 3].sort((a, b) => WINDS.indexOf(q.windOf(a)) - WINDS.indexOf(q.windOf(b)));
  const signed = (n) => (n > 0 ? `+${n}` : String(n || 0));
  return t("ask.scores", { list: order.map((s) => t("ask.score", { who: who(s), amount: signed(ledger[s]) })).join(t("say.group_sep")) });
}

function turnAnswer(q) {
  const v = q.view;
  const who = seatPhraser({ me: q.seat, seatName: q.seatName, windOf: q.windOf });
  if (v.result) return t("ask.turn_over");
  if (v.phase === "claim") {
    const tile = v.last_discard ? v.last_discard.tile : v.window ? v.window.tile : "";
    return t("ask.turn_claims", { tile: sayTile(tile) });
  }
  if (v.turn === q.seat) return t("ask.turn_you");
  return t("ask.turn", { who: who(v.turn) });
}

function timeAnswer(q) {
  const tm = q.timer;
  if (!tm) return t("ask.time_none");
  const s = Math.max(0, Math.ceil((tm.deadline - performance.now()) / 1000));
  if (tm.kind === "next_hand") return t("ask.time_next", { s });
  const seats = tm.seats || [];
  if (seats.includes(q.seat)) return t("ask.time_you", { s });
  // on a claim window nobody else's timer is shown (it would tell who may claim)
  if (q.view.phase === "turn" && seats.includes(q.view.turn)) {
    const who = seatPhraser({ me: q.seat, seatName: q.seatName, windOf: q.windOf });
    return t("ask.time_other", { who: who(q.view.turn), s });
  }
  return t("ask.time_none");
}

function optionsAnswer(q) {
  const words = promptWords(q.view, { me: q.seat, canGoNext: q.canGoNext });
  return words || t("ask.options_none");
}

export function helpAnswer() {
  return t("ask.help", { list: ASK_KEYS.map(([key, what]) => `${key}: ${t(what)}`).join(t("say.group_sep")) });
}

/** See the top of the file. */
export function answerKey(ev, q) {
  const key = ev.key;
  if (ev.shiftKey && /^[eswn]$/i.test(key)) return seatAnswer(q, key.toUpperCase());
  switch (key.length === 1 ? key.toLowerCase() : key) {
    case "a": return handAnswer(q);
    case "s": return waitsAnswer(q);
    case "d": {
      const d = lastDiscard(q);
      if (!d) return t("ask.no_discard");
      const who = seatPhraser({ me: q.seat, seatName: q.seatName, windOf: q.windOf });
      return t("ask.last_discard", { who: who(d.seat), tile: sayTile(d.tile) });
    }
    case "u": {
      const d = lastDiscard(q);
      const tile = q.focusedTile() || (d && d.tile);
      return tile ? unseenAnswer(q, tile) : t("ask.unseen_which");
    }
    case "l": return wallAnswer(q);
    case "m": return scoresAnswer(q);
    case "y": return turnAnswer(q);
    case "i": return timeAnswer(q);
    case "o": return optionsAnswer(q);
    case ".": q.announcer.repeat(); return null;
    case "v": return q.toggleVerbosity();
    case "?": return helpAnswer();
    default: return undefined;
  }
}

