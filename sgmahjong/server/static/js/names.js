// How the pages name a seat's player: a person by the name they gave; a bot by its level, never by a
// wind (the winds move from hand to hand): "Bot · Casual", numbered when the table has several bots of
// that level ("Bot 2 · Casual"), in the page's language. Used by the lobby, the replay and the table.
import { t } from "./i18n.js";

/** The name of `seats[seat]` (seats: the table's [{kind, name, bot_level}]). */
export function playerName(seats, seat) {
  const s = seats && seats[seat];
  if (!s) return "";
  if (s.kind !== "bot") return s.name || t("table.seat_n", { n: seat + 1 });
  const level = s.bot_level || "greedy";
  const same = seats.map((x, i) => (x && x.kind === "bot" && (x.bot_level || "greedy") === level ? i : -1))
    .filter((i) => i >= 0);
  const label = t(`bot.${level}`);
  return same.length > 1 ? t("pages.bot_name_n", { n: same.indexOf(seat) + 1, level: label })
    : t("table.bot_name", { level: label });
}

/** A table's name in the page's language: "Ann vs bots" (the name Play vs bots gives) is translated
 * on a 中文 page; any other name as it was given. */
export function tableName(name) {
  const m = /^(.*) vs bots$/.exec(String(name || ""));
  return m ? t("pages.vs_bots_name", { name: m[1] }) : String(name || "");
}
