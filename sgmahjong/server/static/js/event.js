// /event/CODE: an event's page (GET /api/events/CODE, readable by anyone with the link): its entrants,
// each round's tables (who sits where, a link to watch or play) and a duplicate round's walls (the
// commitment from the round's start, the secret once it ended: docs/wall.md checks them), and the
// standings computed by the server from the stored hands. Entrants enter or leave while it is open;
// the organiser starts the first round. Every name is a player's text: textContent only.
import { clubRequest, el, failText } from "./clubapi.js";
import { t } from "./i18n.js";
import { shareButton } from "./share.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/").pop() || "");
const api = `/api/events/${encodeURIComponent(code)}`;
const REFRESH_MS = 5000;
let join = new URLSearchParams(location.search).get("join") || ""; // an entry-code event's join code
let shown = null; // the page's data as last shown

function status(text, bad = false) {
  $("event-status").textContent = text;
  $("event-status").classList.toggle("bad", bad);
}

function show(button, on) {
  button.hidden = !on;
  button.style.display = on ? "" : "none";
}

function score(x) {
  return x > 0 ? `+${x}` : String(x);
}

function renderStandings(data) {
  const box = $("standings");
  box.replaceChildren();
  if (!data.standings.length) {
    box.append(el("p", t("event.no_standings"), "muted"));
    return;
  }
  const table = document.createElement("table");
  table.className = "standings";
  const head = document.createElement("tr");
  for (const key of ["event.rank", "event.player", "event.score", "event.won", "event.by_bot"]) {
    head.append(el("th", t(key)));
  }
  table.append(head);
  for (const row of data.standings) {
    const tr = document.createElement("tr");
    tr.append(el("td", String(row.rank)), el("td", row.entrant), el("td", score(row.score)),
      el("td", String(row.won)), el("td", String(row.by_bot)));
    table.append(tr);
  }
  box.append(table);
}

function renderRounds(data) {
  const box = $("rounds");
  box.replaceChildren();
  if (!data.played.length) {
    box.append(el("p", t("event.not_begun"), "muted"));
    return;
  }
  for (const r of data.played) {
    const section = document.createElement("div");
    section.className = "event-round";
    section.append(el("h3", t(r.ended ? "event.round_ended" : "event.round_playing", { n: r.round })));
    const list = document.createElement("ul");
    for (const tab of r.tables) {
      const li = document.createElement("li");
      const link = el("a", t("event.table", { n: tab.table }));
      link.href = `/t/${encodeURIComponent(tab.code)}`;
      const seats = tab.seats.map((s) => s ?? t("event.bot")).join(" · ");
      li.append(link, document.createTextNode(` — ${seats}`));
      list.append(li);
    }
    section.append(list);
    if (r.walls.length) {
      const walls = document.createElement("details");
      walls.append(el("summary", t("event.walls", { n: r.walls.length })));
      for (const w of r.walls) {
        const line = el("p", t("event.wall_line", { hand: w.hand, hash: w.wall_hash.slice(0, 16) }), "mono");
        if (w.secret) line.append(document.createTextNode(` · ${t("event.secret")} ${w.secret}`));
        walls.append(line);
      }
      section.append(walls);
    }
    box.append(section);
  }
}

/** The start time in the zone it was set in (Singapore by default) and in the reader's own. */
function renderWhen(data) {
  const line = $("event-when");
  line.hidden = !(data.starts && data.status === "open");
  if (line.hidden) return;
  const lang = document.documentElement.lang || "en";
  const fmt = (zone) => new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short",
    hour: "2-digit", minute: "2-digit", timeZone: zone }).format(new Date(data.starts * 1000));
  line.textContent = t("event.starts", { when: fmt(data.zone), zone: data.zone, mine: fmt(undefined) });
}

function render(data) {
  document.title = `${data.name} — sgmahjong`;
  $("event-title").textContent = data.name;
  $("event-about").textContent = t(data.hands ? "event.about" : "event.about_match", {
    format: t(`event.format.${data.format}`), rounds: data.rounds, hands: data.hands,
    organiser: data.organiser,
  });
  status(t(`event.status.${data.status}`, { n: data.round, rounds: data.rounds }));
  renderWhen(data);
  $("walls-note").hidden = data.format !== "duplicate";
  $("event-entry").textContent = t(`event.entry.${data.entry}`, { club: data.club || "" });
  const open = data.status === "open";
  $("join-box").hidden = !(open && !data.entered && data.entry === "code");
  $("code-box").hidden = !(open && data.is_organiser && data.entry === "code");
  $("code-note").textContent = data.is_organiser && join ? t("event.code_note", { code: join }) : "";
  if (join && !$("join-code").value) $("join-code").value = join;
  if (!shown) shareButton($("event-share"), () => ({ title: shown.name, text: t("event.share_text", { name: shown.name }),
    url: `${location.origin}/event/${encodeURIComponent(code)}${join ? `?join=${encodeURIComponent(join)}` : ""}` }));
  shown = data;
  const entrants = $("entrants");
  entrants.replaceChildren(...data.entrants.map((n) => el("li", n)));
  show($("enter"), open && !data.entered);
  show($("leave"), open && data.entered);
  show($("start"), open && data.is_organiser);
  renderStandings(data);
  renderRounds(data);
  $("event-body").hidden = false;
}

async function load() {
  try {
    render(await clubRequest("GET", api));
  } catch (err) {
    status(failText(err), true);
  }
}

async function post(path, body = {}) {
  try {
    render(await clubRequest("POST", `${api}${path}`, body));
  } catch (err) {
    status(failText(err), true);
  }
}

$("enter").addEventListener("click", () => post("/enter", $("join-box").hidden ? {} : { code: $("join-code").value.trim() || null }));
$("leave").addEventListener("click", () => post("/leave"));
$("start").addEventListener("click", () => post("/start"));
$("new-code").addEventListener("click", async () => {
  try {
    const made = await clubRequest("POST", `${api}/code`, {});
    join = made.join_code;
    history.replaceState(null, "", made.url); // the link to share holds the new code
    if (shown) render(shown);
  } catch (err) {
    status(failText(err), true);
  }
});
load();
setInterval(() => { if (document.visibilityState === "visible") load(); }, REFRESH_MS);
