// A table the ranked queue opened (GET /api/tables/CODE/ranked): a line saying that leaving places you
// last while the match goes on, and at its end each seat's new rating and its change and the rank
// points gained or lost, as the server rated them (never worked out here).
import { t } from "./i18n.js";
import { rankName } from "./ranks.js";
import { signed } from "./dom.js";

// The rating is stored with the last hand, so it is there when the match end shows; a page that could
// not ask (offline, the server restarting) asks again, less and less often, for a few minutes.
const RETRY_FIRST_MS = 1000;
const RETRY_MOST_MS = 15000;
const RETRY_FOR_MS = 5 * 60 * 1000;

/** The table's ranked outcome; `{ ranked: false }` for a table that is not there or not the asker's
 * to see; null when the server could not answer (ask again). */
export async function rankedOutcome(code) {
  const res = await fetch(`/api/tables/${encodeURIComponent(code)}/ranked`, { headers: { Accept: "application/json" } });
  if (res.ok) return res.json();
  return res.status === 403 || res.status === 404 ? { ranked: false } : null;
}

/** The "leaving places you last" line above the table (shown until the match is over). */
export function showLeaveNote(on) {
  let el = document.getElementById("ranked-note");
  if (!on) {
    if (el) el.remove();
    return;
  }
  if (el) return;
  el = document.createElement("p");
  el.id = "ranked-note";
  el.className = "ranked-note";
  el.setAttribute("role", "note");
  el.textContent = t("ranked.leave_last");
  document.getElementById("main").prepend(el);
}

function cell(row, text, cls) {
  const td = document.createElement("td");
  if (cls) td.className = cls;
  td.textContent = text;
  row.append(td);
  return td;
}

function rankText(s) {
  if (!s.after) return "–";
  if (s.rank_change > 0) return t("ranked.end.promoted", { rank: rankName(s.after) });
  if (s.rank_change < 0) return t("ranked.end.demoted", { rank: rankName(s.after) });
  return t("ranked.end.points", { change: signed(s.points_change), points: s.after.points });
}

/** The ranked part of the match end, for an outcome whose state is not "playing". */
export function rankedEndElement(out, seatName) {
  const wrap = document.createElement("section");
  wrap.id = "ranked-end";
  wrap.dataset.state = out.state;
  const h = document.createElement("h2");
  h.textContent = t("ranked.end.title");
  wrap.append(h);
  if (out.state !== "rated") {
    const p = document.createElement("p");
    p.className = "ranked-unrated";
    const absent = out.seats.filter((s) => s.absent).map((s) => seatName(s.seat));
    p.textContent = out.state === "voided" ? t("ranked.end.voided")
      : t("ranked.end.unrated", { names: absent.join(", ") });
    wrap.append(p);
    if (out.state === "voided") return wrap;
  }
  const tbl = document.createElement("table");
  tbl.className = "data ranked-changes";
  const head = document.createElement("tr");
  for (const key of ["player", "rating", "rank"]) {
    const th = document.createElement("th");
    th.textContent = t(`ranked.end.col.${key}`);
    head.append(th);
  }
  const body = document.createElement("tbody");
  for (const s of [...out.seats].sort((a, b) => (a.place || 9) - (b.place || 9) || a.seat - b.seat)) {
    const row = document.createElement("tr");
    row.dataset.seat = String(s.seat);
    const who = cell(row, seatName(s.seat));
    if (s.left || s.absent) {
      const mark = document.createElement("span");
      mark.className = "left-mark";
      mark.textContent = ` ${t(s.absent ? "ranked.end.absent_mark" : "ranked.end.left_mark")}`;
      who.append(mark);
    }
    cell(row, s.after ? t("ranked.end.rating", { rating: s.after.rating, change: signed(s.rating_change) }) : "–",
      "num rating");
    cell(row, rankText(s), "rank-change");
    body.append(row);
  }
  const thead = document.createElement("thead");
  thead.append(head);
  tbl.append(thead, body);
  wrap.append(tbl);
  return wrap;
}

/** Add the ranked part to the match end in `el` once the server has rated the match; `still()` says
 * whether `el` still shows that match end. */
export async function appendRankedEnd(el, code, seatName, still) {
  const until = performance.now() + RETRY_FOR_MS;
  for (let wait = RETRY_FIRST_MS; performance.now() < until; wait = Math.min(RETRY_MOST_MS, wait * 2)) {
    const out = await rankedOutcome(code).catch(() => null);
    if (!still()) return;
    if (out && !out.ranked) return;
    if (out && out.state !== "playing") {
      const old = el.querySelector("#ranked-end");
      if (old) old.remove();
      const standings = el.querySelector("#standings");
      const node = rankedEndElement(out, seatName);
      if (standings) standings.after(node);
      else el.append(node);
      return;
    }
    await new Promise((r) => setTimeout(r, wait));
  }
}
