// The table log in plain words with tile pictures ("Bot S pongs 9 Bamboo" and the tiles), one line per
// redacted event: from the server's `event` messages and, after a reload or for a spectator, from the
// `log` message (the current hand's stored events, redacted for this viewer by the server).
import { tileElement, tileName } from "./tiles.js";
import { eventKind, eventText } from "./events.js";
import { t } from "./i18n.js";
import { scrollLater } from "./dom.js";

const MAX_LINES = 300;

/** The tiles an event shows (as pictures), or null. */
function pictured(e) {
  switch (eventKind(e)) {
    case "deal": return e.tiles || null;
    case "draw": case "discard": return e.tile ? [e.tile] : null;
    case "bonus": return e.tile ? [e.tile] : e.tiles || null;
    case "chow": return e.tiles || null;
    case "pong": return e.tile ? [e.tile, e.tile, e.tile] : null;
    case "kong": return e.tile ? [e.tile, e.tile, e.tile, e.tile] : null;
    default: return null;
  }
}

/** The words of one line (null: the event is left out of the log). ctx: {seatName, mySeat}. */
export function logWords(e, ctx) {
  const who = ctx.seatName(e.seat);
  const kind = eventKind(e);
  const tile = e.tile ? tileName(e.tile) : "";
  switch (kind) {
    case "deal":
      return e.seat === ctx.mySeat && e.tiles ? t("flow.log.dealt") : null;
    case "draw":
      return e.seat === ctx.mySeat && e.tile ? t("flow.log.drew", { tile }) : null;
    case "bonus":
      if (!tile && !e.tiles) return eventText(e, ctx);
      return t("flow.log.bonus", { who, tile: tile || e.tiles.map(tileName).join(", ") });
    case "discard":
      return t("flow.log.discard", { who, tile });
    case "chow":
      return t("flow.log.chow", { who, tile: (e.tiles || []).map(tileName).join(" – ") });
    case "pong":
      return t("flow.log.pong", { who, tile });
    case "kong": {
      const how = e.kong_kind;
      const key = how === "concealed" ? "flow.log.kong_concealed" : how === "added" ? "flow.log.kong_added" : "flow.log.kong";
      return t(key, { who, tile });
    }
    default:
      return eventText(e, ctx);
  }
}

/** One <li> for event `e`, or null. */
export function logItem(e, ctx) {
  const words = logWords(e, ctx);
  if (!words) return null;
  const li = document.createElement("li");
  li.dataset.kind = eventKind(e);
  if (eventKind(e) === "payment") li.className = "pay";
  const text = document.createElement("span");
  text.className = "log-text";
  text.textContent = words;
  li.append(text);
  const tiles = pictured(e);
  if (tiles && tiles.length) {
    const row = document.createElement("span");
    row.className = "log-tiles";
    for (const tile of tiles) row.append(tileElement(tile, { size: "xs" }));
    li.append(" ", row);
  }
  return li;
}

/** Append event `e` to the log list `ol`; returns the words (for toasts), or null. */
export function appendLog(ol, e, ctx) {
  const li = logItem(e, ctx);
  if (!li) return null;
  ol.append(li);
  while (ol.children.length > MAX_LINES) ol.firstChild.remove();
  scrollLater(ol);
  return li.querySelector(".log-text").textContent;
}

/** Replace the log with a hand's events (the `log` message). */
export function fillLog(ol, events, ctx) {
  ol.innerHTML = "";
  for (const e of events) appendLog(ol, e, ctx);
}
