// The table log: a line of text for each engine event the server forwards (redacted for this seat).
import { signed } from "./dom.js";
import { has, t } from "./i18n.js";

/** The event's kind (a kong's, window's or win's own kind is `kong_kind`, `window_kind`, `win_kind`). */
export function eventKind(e) {
  return e.kind;
}

/** The name of a payment's reason ("exposed_kong" -> "exposed kong" / "明杠"). */
export function paymentReason(reason) {
  const r = String(reason || "payment");
  return has(`pay.${r}`) ? t(`pay.${r}`) : r.replaceAll("_", " ");
}

/**
 * One line of the table log for a redacted event, or null for events the log leaves out.
 * ctx: {seatName(seat), mySeat}.
 */
export function eventText(e, ctx) {
  const who = ctx.seatName(e.seat);
  const kind = eventKind(e);
  const tile = e.tile || "";
  switch (kind) {
    case "hand_start":
      return e.wall_hash ? t("log.hand_start_hash", { hash: String(e.wall_hash).slice(0, 12) }) : t("log.hand_start");
    case "deal":
      return e.seat === ctx.mySeat && e.tiles ? t("log.dealt", { tiles: e.tiles.join(" ") }) : null;
    case "draw":
      return e.seat === ctx.mySeat && e.tile ? t("log.drew", { tile }) : null;
    case "bonus":
      if (tile || e.tiles) return t("log.bonus", { who, tile: tile || e.tiles.join(" ") });
      return t("log.bonus_some", { who });
    case "discard":
      return t("log.discard", { who, tile });
    case "chow":
      return t("log.chow", { who, tiles: (e.tiles || []).join(" ") });
    case "pong":
      return t("log.pong", { who, tile });
    case "kong": {
      const how = e.kong_kind;
      const key = how === "concealed" ? "log.kong_concealed" : how === "added" ? "log.kong_added" : "log.kong";
      return t(key, { who, tile });
    }
    case "payment":
      return paymentText(e, ctx);
    case "win":
      return t(e.self_drawn ? "log.win_self" : "log.win", { who, tai: e.tai });
    case "drawn_game":
      return t("log.drawn_game");
    case "match_end":
      return t("log.match_end");
    default:
      return null;
  }
}

/** The seats a payment moves points between (for the toasts by the seats). */
export function paymentAmounts(e) {
  const amounts = e.amounts || e.payments || e.deltas;
  return Array.isArray(amounts) ? amounts : null;
}

function paymentText(e, ctx) {
  const amounts = paymentAmounts(e);
  const reason = paymentReason(e.reason || e.label || e.why || e.what);
  if (amounts) {
    const parts = amounts.map((a, s) => (a ? `${ctx.seatName(s)} ${signed(a)}` : null)).filter(Boolean);
    return t("log.payment", { reason, parts: parts.join(", ") });
  }
  const amount = e.amount !== undefined ? ` ${e.amount}` : "";
  return t("log.payment_to", { who: ctx.seatName(e.seat), reason, amount });
}
