// The table log: a line of text for each engine event the server forwards (redacted for this seat).
import { signed } from "./dom.js";

/** The event's kind (a kong's, window's or win's own kind is `kong_kind`, `window_kind`, `win_kind`). */
export function eventKind(e) {
  return e.kind;
}

/**
 * One line of the table log for a redacted event, or null for events the log leaves out.
 * ctx: {seatName(seat), mySeat}.
 */
export function eventText(e, ctx) {
  const who = ctx.seatName(e.seat);
  const kind = eventKind(e);
  const tile = e.tile ? ` ${e.tile}` : "";
  switch (kind) {
    case "hand_start":
      return `A new hand begins${e.wall_hash ? ` (wall hash ${String(e.wall_hash).slice(0, 12)}…)` : ""}.`;
    case "deal":
      return e.seat === ctx.mySeat && e.tiles ? `You were dealt ${e.tiles.join(" ")}.` : null;
    case "draw":
      return e.seat === ctx.mySeat && e.tile ? `You drew ${e.tile}.` : null;
    case "bonus":
      return `${who} laid out${tile || (e.tiles ? " " + e.tiles.join(" ") : " a bonus tile")}.`;
    case "discard":
      return `${who} discarded${tile}.`;
    case "chow":
      return `${who} chows ${(e.tiles || []).join(" ")}.`;
    case "pong":
      return `${who} pongs ${e.tile}.`;
    case "kong": {
      const how = e.kong_kind;
      const verb = how === "concealed" ? "declares a concealed kong of" : how === "added" ? "adds a kong of" : "kongs";
      return `${who} ${verb} ${e.tile}.`;
    }
    case "payment":
      return paymentText(e, ctx);
    case "win":
      return `${who} wins${e.self_drawn ? " by self-draw" : ""}: ${e.tai} tai!`;
    case "drawn_game":
      return "The wall is down to 15 tiles: drawn hand.";
    default:
      return null;
  }
}

function paymentText(e, ctx) {
  const amounts = e.amounts || e.payments || e.deltas;
  const reason = e.reason || e.label || e.why || e.what || "payment";
  if (Array.isArray(amounts)) {
    const parts = amounts.map((a, s) => (a ? `${ctx.seatName(s)} ${signed(a)}` : null)).filter(Boolean);
    return `Payment (${String(reason).replaceAll("_", " ")}): ${parts.join(", ")}`;
  }
  const amount = e.amount !== undefined ? ` ${e.amount}` : "";
  return `Payment to ${ctx.seatName(e.seat)}: ${String(reason).replaceAll("_", " ")}${amount}`;
}
