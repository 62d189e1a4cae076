// The live part of a club's page (/club/CODE): it asks for the club's live summary
// (GET /api/clubs/CODE/live) every few seconds while the page is visible, sending the version it has
// (If-None-Match: an unchanged summary is answered 304, with no body), and draws who of the members is
// online, who sits at which open table (bots marked as bots) and the welcome of a member who has just
// joined by an invite link, with the open table to sit at in one tap. Names are players' text:
// textContent only.
import { clubRequest, el } from "./clubapi.js";
import { choiceName } from "./api.js";
import { identityReady } from "./identity.js";
import { saveToken } from "./protocol.js";
import { t } from "./i18n.js";

const WINDS = ["E", "S", "W", "N"];

/** Ask for the live summary every `poll` seconds while the page is visible (at once when it is shown
 * again); `onSummary(summary)` on each new version. A refusal (429, 404) waits longer, never stops. */
export function startLive(url, onSummary) {
  let tag = null;
  let timer = null;
  let every = 5;
  async function ask() {
    clearTimeout(timer);
    timer = null;
    if (document.visibilityState === "hidden") return;
    let wait = every;
    try {
      await identityReady;
      const headers = { Accept: "application/json" };
      if (tag) headers["If-None-Match"] = tag;
      const res = await fetch(url, { headers, cache: "no-store" });
      if (res.status === 200) {
        tag = res.headers.get("ETag");
        const summary = await res.json();
        every = Math.max(1, Number(summary.poll) || every);
        wait = every;
        onSummary(summary);
      } else if (res.status !== 304) {
        wait = every * 4;
      }
    } catch (_err) {
      wait = every * 4; // offline for a moment: try again later
    }
    if (document.visibilityState !== "hidden") timer = setTimeout(ask, wait * 1000);
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && timer === null) ask();
  });
  ask();
}

/** Who is online: each member's name, and the table they sit at. */
export function renderOnline(list, summary) {
  const items = summary.online.map((o) => {
    const li = el("li", o.name, "online-member");
    li.dataset.member = o.member;
    const at = o.table && summary.tables.find((x) => x.code === o.table);
    if (at) li.append(el("span", ` · ${t("club.at_table", { table: at.name })}`, "muted"));
    return li;
  });
  list.replaceChildren(...(items.length ? items : [el("li", t("club.nobody_online"), "muted")]));
}

/** Who sits where at a table: "East Ann · South Ben · West Bot (Strong) · North —". */
export function seatsLine(table) {
  const line = el("div", "", "table-seats");
  (table.seats || []).forEach((s, i) => {
    if (i) line.append(" · ");
    const who = s.kind === "empty" ? el("span", t("club.seat_free"), "muted seat-free")
      : s.kind === "bot" ? el("span", t("club.seat_bot", { level: choiceName(s.level || "") }), "seat-bot")
        : el("span", s.name || "", s.member ? "seat-member" : "seat-guest");
    line.append(el("span", `${t(`wind.${WINDS[s.seat]}`)} `, "muted"), who);
  });
  return line;
}

/** A table with a free seat (the first open one), for the one-tap Sit. */
export function freeTable(summary) {
  return summary.tables.find((x) => x.status === "lobby" && (x.seats || []).some((s) => s.kind === "empty"));
}

/** Sit at `table` under `name` (a member's display name), then open it. */
export async function sitAt(table, name) {
  const answer = await clubRequest("POST", `/api/tables/${encodeURIComponent(table.code)}/join`, { name });
  saveToken(table.code, answer.token);
  location.href = table.url;
}
