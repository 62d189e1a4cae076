// What a screen reader hears at the table: one short announcement per game event, in the page's
// language, through the live region #announce (role "log"), and the offers of the moment with their keys
// ("West, Ah Beng discards 5 Bamboo. Pong 5 Bamboo: P, Pass: space.").
//
// Only the player's own view goes in: the redacted events and the view the server sent this seat (a
// spectator's carry no concealed tile of anyone), so nothing is said that the seat could not see.
//
//   const a = createAnnouncer(region, () => ({me, seatName, windOf, verbosity, canGoNext}))
//   a.onEvent(e)   each event as it comes (held until its view)
//   a.onView(v)    the view that follows: says the events and the offers, once each
//   a.say(text)    an answer (ask.js);  a.repeat()  the last game announcement again
//
// explain(events, view, ctx) is the pure part (tests/test_browser_a11y.py feeds it a recorded hand).
import { lang, t } from "./i18n.js";
import { eventKind, paymentAmounts, paymentReason } from "./events.js";
import { chowInfo, legalGroups } from "./moves.js";
import { ACTION_KEYS } from "./keys.js";
import { paymentSentences, sayRun, sayTile, sayTiles } from "./speech.js";

const WINDS = ["E", "S", "W", "N"];
const KEEP = 30; // announcements kept in the region (a screen reader reads each as it is added)

/** seat -> "West, Ah Beng" / "西家 Ah Beng"; the viewer is "You" (or "you" as an object). */
export function seatPhraser(c) {
  return (seat, object = false) => {
    if (c.me !== null && c.me !== undefined && seat === c.me) return t(object ? "say.you_object" : "say.you");
    if (seat === null || seat === undefined) return "";
    return t("say.seat", { wind: t(`wind.${c.windOf(seat)}`), name: c.seatName(seat) });
  };
}

/** Two sentences one after the other. */
export function joinSentences(a, b) {
  if (!a) return b;
  if (!b) return a;
  return lang() === "zh" ? `${a}${b}` : `${a} ${b}`;
}

function standingsWords(v, who) {
  const rows = Array.isArray(v.standings) ? [...v.standings] : [];
  rows.sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  return rows.map((s, i) => t("say.standing", { place: s.rank ?? i + 1, who: who(s.seat), amount: signed(s.amount ?? 0) }))
    .join(t("say.group_sep"));
}

/** The words of one event (null: not said: another seat's draw, echoes of actions, windows). */
export function eventWords(e, v, c, who) {
  const mine = c.me !== null && c.me !== undefined && e.seat === c.me;
  const tile = e.tile ? sayTile(e.tile) : "";
  switch (eventKind(e)) {
    case "hand_start": {
      const args = { n: v.hand_number ?? "", round: t(`wind.${WINDS[v.prevailing || 0]}`), dealer: who(v.dealer, true) };
      if (c.me === null || c.me === undefined) return t("say.hand_start_watch", args);
      return t("say.hand_start", { ...args, wind: t(`wind.${c.windOf(c.me)}`) });
    }
    case "deal":
      return mine && e.tiles ? t("say.deal", { count: e.tiles.length }) : null;
    case "draw":
      if (!mine || !e.tile) return null;
      return t(e.source === "back" ? "say.draw_back" : "say.draw", { tile });
    case "discard":
      return mine ? t("say.discard_me", { tile }) : t("say.discard", { who: who(e.seat), tile });
    case "bonus": {
      const tiles = e.tile ? sayTile(e.tile) : sayTiles(e.tiles || []);
      return mine ? t("say.bonus_me", { tile: tiles }) : t("say.bonus", { who: who(e.seat), tile: tiles });
    }
    case "chow":
      return t(mine ? "say.chow_me" : "say.chow", { who: who(e.seat), tiles: sayRun(e.tiles || []) });
    case "pong":
      return t(mine ? "say.pong_me" : "say.pong", { who: who(e.seat), tile });
    case "kong": {
      const how = e.kong_kind === "concealed" ? "say.kong_concealed" : e.kong_kind === "added" ? "say.kong_added" : "say.kong";
      return t(mine ? `${how}_me` : how, { who: who(e.seat), tile });
    }
    case "decision":
      if (!mine) return null;
      return t(e.action === "pass" ? "say.decision_pass" : "say.decision_claim");
    case "win": {
      const args = { who: who(e.seat), shooter: who(e.shooter), tai: e.tai };
      let key = e.self_drawn ? "say.win_self" : "say.win";
      if (mine) key += "_me";
      else if (!e.self_drawn && e.shooter === c.me) key = "say.win_on_me";
      let text = t(key, args);
      for (const s of paymentSentences(e.payments, who, c.me)) text = joinSentences(text, s);
      if (e.liable !== null && e.liable !== undefined) text = joinSentences(text, t("say.pay_liable", { who: who(e.liable, true) }));
      return text;
    }
    case "payment": {
      const sentences = paymentSentences(paymentAmounts(e), who, c.me);
      const reason = paymentReason(e.reason || e.label || e.why || e.what);
      return t("say.payment", { what: reason, sentences: sentences.reduce(joinSentences, "") });
    }
    case "drawn_game":
      return t("say.drawn_game");
    case "match_end":
      return joinSentences(t("say.match_end"), standingsWords(v, who));
    default:
      return null; // action, window, pass, hand_end (the win or the drawn game said it)
  }
}

/** At "only what concerns me": my own moves, claims on my discards, payments I am in, the hand's end;
 * another seat's discard only when I am offered a claim on it. */
function concerns(e, c, offeredOn) {
  const me = c.me;
  switch (eventKind(e)) {
    case "discard": return e.seat === me || offeredOn;
    case "chow": case "pong": case "kong": return e.seat === me || e.source === me;
    case "bonus": return e.seat === me;
    case "payment": {
      const amounts = paymentAmounts(e);
      return Boolean(amounts && amounts[me]);
    }
    default: return true;
  }
}

/** What I may do now, with the keys ("Pong 5 Bamboo: P, Pass: space."), or null. */
export function promptWords(v, c) {
  if (c.me === null || c.me === undefined) return null;
  if (v.result) return c.canGoNext ? t("say.next_hand") : null;
  if (!(v.legal_actions || []).length) return null;
  const g = legalGroups(v);
  const discard = v.last_discard ? v.last_discard.tile : v.window ? v.window.tile : null;
  const offers = [];
  if (g.win) offers.push(t("say.offer.win"));
  g.kongs.forEach((k, i) => {
    const tile = sayTile(k.split(" ")[1] || discard);
    offers.push(i === 0 ? t("say.offer.kong", { tile, key: ACTION_KEYS.kong }) : t("say.offer.kong_nokey", { tile }));
  });
  if (g.pong) offers.push(t("say.offer.pong", { tile: sayTile(discard) }));
  const chows = g.chows.map((a) => chowInfo(a, discard));
  chows.sort((a, b) => "ZXC".indexOf(a.key) - "ZXC".indexOf(b.key));
  for (const info of chows) offers.push(t("say.offer.chow", { tiles: sayRun(info.tiles), key: info.key || "" }));
  if (g.pass) offers.push(t("say.offer.pass"));
  if (g.discards.size) {
    if (!offers.length) return t("say.your_turn");
    offers.push(t("say.offer.discard"));
  }
  return offers.length ? t("say.offers", { list: offers.join(t("say.list_sep")) }) : null;
}

function promptKey(v) {
  if (v.result) return `result ${v.hand_number}`;
  return `${v.hand_number} ${v.version} ${(v.legal_actions || []).join(",")}`;
}

/**
 * The announcements for `events` (one message's, in order) and the view `v` that follows them:
 * [{text, event}] where `event` is the index of the event said (each said event once) or null for an
 * offer said on its own; the offer of the moment rides on the last event said. ctx: {me, seatName(seat),
 * windOf(seat), verbosity ("all" | "mine"), canGoNext, lastPrompt}; returns {items, promptKey}.
 */
export function explain(events, v, ctx) {
  const who = seatPhraser(ctx);
  const key = promptKey(v);
  const prompt = key !== ctx.lastPrompt ? promptWords(v, ctx) : null;
  let lastDiscard = -1;
  events.forEach((e, i) => { if (eventKind(e) === "discard") lastDiscard = i; });
  const items = [];
  events.forEach((e, i) => {
    const text = eventWords(e, v, ctx, who);
    if (!text) return;
    if (ctx.verbosity === "mine" && !concerns(e, ctx, i === lastDiscard && Boolean(prompt) && v.phase === "claim")) return;
    items.push({ text, event: i });
  });
  if (prompt) {
    if (items.length) items[items.length - 1].text = joinSentences(items[items.length - 1].text, prompt);
    else items.push({ text: prompt, event: null });
  }
  return { items, promptKey: key };
}

/** The live region's announcer (see the top of this file). */
export function createAnnouncer(region, context) {
  let pending = [];
  let lastPrompt = null;
  let lastGame = "";

  function say(text) {
    if (!region || !text) return;
    const p = document.createElement("p");
    p.textContent = text;
    region.append(p);
    while (region.children.length > KEEP) region.firstChild.remove();
  }

  return {
    say,
    onEvent(e) {
      pending.push(e);
    },
    onView(v) {
      const { items, promptKey: key } = explain(pending, v, { ...context(), lastPrompt });
      pending = [];
      lastPrompt = key;
      for (const item of items) {
        say(item.text);
        lastGame = item.text;
      }
    },
    /** The last game announcement (null: none yet). */
    last() {
      return lastGame || null;
    },
    repeat() {
      say(lastGame || t("ask.nothing"));
    },
  };
}
