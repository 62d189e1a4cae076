// /club/CODE: a club's page for its members (GET /api/clubs/CODE; anyone else gets 404 and sees only
// "no such club"): its open tables, the ledger of the current settle-up period and of the season, the
// fewest transfers that settle up (copyable as a message in the page's language), recent matches,
// members and invite links, past settle-ups. The owner may make a club table public (its replays,
// results and spectating open to anyone with its link). Points first: the ledger is in points unless
// the owner turned money on (clubmoney.js); what the bots' seats won or paid is shown apart from the
// members' figures, which are what the settle-up pays. Every name is a player's text: textContent.
import { choiceName, presetName } from "./api.js";
import { actButton, clubRequest, el, failText, stakesLabel } from "./clubapi.js";
import { amount, renderMoney, signedAmount, wireMoney } from "./clubmoney.js";
import { freeTable, renderOnline, seatsLine, sitAt, startLive } from "./clublive.js";
import { transferItems } from "./clubticks.js";
import { lang, t } from "./i18n.js";
import { shareButton } from "./share.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/").pop() || "");
const api = `/api/clubs/${encodeURIComponent(code)}`;
let data = null;
let scope = "period";
let live = null; // the latest live summary: who is online, who sits where
let welcome = location.hash === "#welcome"; // a new member, just joined by an invite link

function status(text, bad = false) {
  $("club-status").textContent = text;
  $("club-status").classList.toggle("bad", bad);
}

function date(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(lang() === "zh" ? "zh-CN" : "en-SG",
    { day: "numeric", month: "short", year: "numeric" });
}

const act = actButton;

async function post(path, body = {}) {
  try {
    const answer = await clubRequest("POST", `${api}${path}`, body);
    await load();
    return answer;
  } catch (err) {
    status(failText(err), true);
    return null;
  }
}

const COLUMNS = ["name", "matches", "wins", "biggest", "owed"];

function renderLedger() {
  const rows = data[scope].ledger;
  for (const s of ["tonight", "period", "season"]) {
    $(`scope-${s}`).setAttribute("aria-pressed", String(s === scope));
    $(`scope-${s}`).classList.toggle("secondary", s !== scope);
  }
  $("scope-season").textContent = t("club.season_n", { n: data.season.number });
  $("scope-note").textContent = scope === "tonight" ? t("club.tonight_since", { since: sinceTime(data.tonight.started) }) : "";
  const table = el("table", "", "data ledger cards-on-phone");
  const head = el("tr");
  const owed = data.club.money ? "club.col.money" : "club.col.owed";
  const label = (c) => t(c === "owed" ? owed : `club.col.${c}`);
  for (const c of COLUMNS) head.append(el("th", label(c), c === "name" ? "" : "num"));
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const r of rows) {
    const tr = el("tr");
    tr.dataset.member = r.member;
    if (r.member === data.me) tr.className = "mine";
    const cells = [r.name, r.matches, r.wins, r.biggest, signedAmount(data.club, r.owed, r.money)];
    cells.forEach((v, i) => {
      const td = el("td", String(v), i ? "num" : "card-wide");
      td.dataset.label = label(COLUMNS[i]);
      if (COLUMNS[i] === "owed") td.classList.add(r.owed > 0 ? "good" : r.owed < 0 ? "bad" : "even");
      tr.append(td);
    });
    table.tBodies[0].append(tr);
  }
  const wrap = el("div", "", "table-scroll");
  wrap.append(table);
  $("ledger").replaceChildren(wrap);
  const bots = data[scope].bots;
  $("ledger-bots").textContent = bots.points ? t(bots.points > 0 ? "club.bots_won" : "club.bots_lost",
    { amount: amount(data.club, bots.points, Math.abs(bots.money || 0)) }) : "";
  $("csv-link").href = `${api}/ledger.csv?scope=${scope === "season" ? "season" : "period"}`;
}

function settleLines(transfers) {
  const key = data.club.money ? "club.pays" : "club.owes_points";
  return transfers.map((x) => t(key, { from: x.from, to: x.to, amount: amount(data.club, x.points, x.cents) }));
}

/** The time tonight began ("6:00 am, 28 Nov"). */
function sinceTime(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang() === "zh" ? "zh-CN" : "en-SG",
    { day: "numeric", month: "short", hour: "numeric", minute: "2-digit" });
}

function renderSettle() {
  const which = scope === "tonight" ? "tonight" : "period"; // the season has no settle-up of its own
  const p = data[which];
  const lines = settleLines(p.transfers);
  $("settle-scope").textContent = t(which === "tonight" ? "club.tonight" : "club.this_period");
  $("transfers").replaceChildren(...(lines.length ? transferItems(p.transfers, lines, which, data.me, post)
    : [el("li", t("club.all_square"), "muted")]));
  $("outside").textContent = p.outside ? t(p.outside > 0 ? "club.outside_won" : "club.outside_lost",
    { amount: amount(data.club, p.outside, Math.abs(p.outside_cents || 0)) }) : "";
  const head = which === "tonight" ? t("club.settle_head_tonight", { club: data.club.name, since: sinceTime(p.started) })
    : t("club.settle_head", { club: data.club.name, since: date(p.started) });
  const marked = lines.map((l, i) => (p.transfers[i].tick ? `${l} ✓` : l));
  $("settle-text").value = [head, ...(lines.length ? marked : [t("club.all_square")])].join("\n");
}

/** Who may see a club table: for the owner a checkbox that makes it public, for the others a word. */
function privacy(x) {
  if (data.club.role !== "owner") return el("span", x.public ? ` · ${t("club.public")}` : "", "muted");
  const label = el("label", "", "table-public");
  const box = el("input");
  box.type = "checkbox";
  box.checked = Boolean(x.public);
  box.dataset.table = x.code;
  box.addEventListener("change", () => post(`/tables/${encodeURIComponent(x.code)}/public`, { public: box.checked }));
  label.append(" ", box, ` ${t("club.public")}`);
  label.title = t("club.public_title");
  return label;
}

function renderTables() {
  const items = data.tables.map((x) => {
    const li = el("li");
    li.dataset.table = x.code;
    const a = el("a", x.name);
    a.href = x.url;
    li.append(a, el("span", ` · ${t(`club.status.${x.status}`)}`, "muted"), privacy(x));
    if (x.seats) li.append(seatsLine(x));
    return li;
  });
  $("club-tables").replaceChildren(...(items.length ? items : [el("li", t("club.no_tables"), "muted")]));
  const recent = data.recent.map((m) => {
    const li = el("li");
    const a = el("a", m.name);
    a.href = `/t/${m.code}`;
    li.append(a, el("span", ` · ${date(m.played)} · ${t("club.hands_n", { n: m.hands })}`, "muted"), privacy(m));
    li.append(el("div", m.nets.map((n) => `${n.name} ${signedAmount(data.club, n.net, n.money)}`).join(" · "),
      "recent-nets"));
    return li;
  });
  $("recent").replaceChildren(...(recent.length ? recent : [el("li", t("club.no_matches"), "muted")]));
}

function renderMembers() {
  const owner = data.club.role === "owner";
  $("members").replaceChildren(...data.members.map((m) => {
    const li = el("li", m.name);
    li.dataset.member = m.member;
    li.append(el("span", ` · ${t(`club.role.${m.role}`)} · ${t("club.joined", { date: date(m.joined) })}`, "muted"));
    if (owner && m.role !== "owner") {
      li.append(" ", act(t("club.remove"), "secondary small", () => {
        if (confirm(t("club.remove_confirm", { name: m.name }))) post("/remove", { member: m.member });
      }));
    }
    return li;
  }));
  $("invites").replaceChildren(...(data.invites || []).map(inviteRow));
  document.querySelectorAll(".owner-only").forEach((e) => { e.hidden = !owner; });
  document.querySelectorAll(".member-only").forEach((e) => { e.hidden = owner; });
}

/** One of the owner's invite links, told apart by its label, fingerprint, maker and dates; its Revoke
 * acts on that row's link alone. */
function inviteRow(i) {
  const li = el("li", "", "invite-row");
  li.dataset.invite = String(i.id);
  const which = el("span", "", "invite-which");
  which.append(el("span", i.label || t("club.invite_no_label"), i.label ? "invite-label" : "muted"), " ",
    el("code", i.fingerprint, "invite-print"));
  const when = [t("club.invite_made_by", { made: date(i.created), maker: i.maker }),
    i.expires ? t("club.invite_valid", { until: date(i.expires) }) : t("club.invite_forever")].join(" · ");
  const name = i.label ? `“${i.label}” (${i.fingerprint})` : i.fingerprint;
  const revoke = act(t("club.revoke"), "secondary small", () => {
    if (confirm(t("club.revoke_confirm", { which: name }))) post(`/invites/${i.id}/revoke`);
  });
  revoke.setAttribute("aria-label", `${t("club.revoke")} ${name}`);
  li.append(which, " ", revoke, el("div", when, "muted invite-when"));
  return li;
}

function renderHistory() {
  const items = data.history.map((p) => {
    const li = el("li", t(p.settled ? "club.period_settled" : "club.period_closed",
      { from: date(p.started), to: date(p.ended) }));
    const lines = settleLines(p.transfers);
    li.append(el("div", lines.length ? lines.join(" · ") : t("club.all_square"), "muted"));
    return li;
  });
  $("history").replaceChildren(...(items.length ? items : [el("li", t("club.no_history"), "muted")]));
}

function render() {
  $("club-title").textContent = data.club.name;
  document.title = `${data.club.name} — sgmahjong`;
  $("club-stakes").textContent = data.club.money
    ? t("club.stakes", { stakes: stakesLabel(data.club.stake), rules: presetName(data.club.preset) })
    : t("club.points_rules", { rules: presetName(data.club.preset) });
  $("club-body").hidden = false;
  renderMoney(data.club);
  renderTables();
  renderLedger();
  renderSettle();
  renderMembers();
  renderHistory();
}

/** A new live summary: who is online and who sits where now; the whole page again when the ledger, the
 * members or the tables changed. */
function onLive(summary) {
  const before = live;
  live = summary;
  if (!data) return;
  const codes = (tables) => tables.map((x) => x.code).join(" ");
  if (before && (before.ledger !== summary.ledger || before.members !== summary.members
    || codes(data.tables) !== codes(summary.tables))) {
    load();
    return;
  }
  data.tables = summary.tables;
  renderTables();
  renderOnline($("online"), summary);
  renderWelcome();
}

/** The one-time welcome of a member who has just joined by an invite link, with the open table to sit
 * at in one tap. */
function renderWelcome() {
  if (!welcome || !data) return;
  $("club-welcome").hidden = false;
  $("welcome-text").textContent = t("club.welcome", { club: data.club.name });
  const open = live && freeTable(live);
  const sit = $("welcome-sit");
  sit.hidden = !open;
  if (open) {
    sit.textContent = t("club.welcome_sit", { table: open.name });
    sit.onclick = async () => {
      const me = data.members.find((m) => m.member === data.me);
      sit.disabled = true;
      try {
        await sitAt(open, me ? me.name : "");
      } catch (err) {
        sit.disabled = false;
        status(failText(err), true);
      }
    };
  }
}

const TURNS = [0, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300];

/** The choices of a new club table, set to the club's defaults (the owner may save new ones). */
async function loadChoices() {
  let got;
  try {
    got = await clubRequest("GET", `${api}/defaults`);
  } catch (_err) {
    return;
  }
  const d = got.defaults;
  const fill = (select, values, label, chosen) => {
    select.replaceChildren(...values.map((v) => new Option(label(v), String(v))));
    select.value = String(chosen);
  };
  const length = (v) => { // "h8": 8 hands; "r2": 2 prevailing-wind rounds
    const n = Number(v.slice(1));
    if (v[0] === "h") return t("club.hands_n", { n });
    return t(n === 1 ? "club.rounds_1" : n === 4 ? "club.rounds_4" : "club.rounds_n", { n });
  };
  fill($("opt-rounds"), ["h4", "h8", "r1", "r2", "r3", "r4"], length, d.hands ? `h${d.hands}` : `r${d.rounds}`);
  const turns = [...new Set([...TURNS.filter((n) => n <= got.turn_max), d.turn_seconds])].sort((a, b) => a - b);
  fill($("opt-turn"), turns, (n) => (n ? t("club.turn_s", { n }) : t("club.turn_none")), d.turn_seconds);
  fill($("opt-pace"), ["relaxed", "normal", "fast"], choiceName, d.pace);
  fill($("opt-bots"), ["beginner", "greedy", "strong", "expert"], choiceName, d.bot_level);
}

function choices() {
  const length = $("opt-rounds").value;
  const n = Number(length.slice(1)) || 4;
  return { rounds: length[0] === "r" ? n : 4, hands: length[0] === "h" ? n : 0,
    turn_seconds: Number($("opt-turn").value), pace: $("opt-pace").value, bot_level: $("opt-bots").value };
}

async function load() {
  try {
    data = await clubRequest("GET", api);
    const seats = new Map((live ? live.tables : []).map((x) => [x.code, x.seats]));
    for (const x of data.tables) x.seats = seats.get(x.code);
    render();
    if (live) renderOnline($("online"), live);
    renderWelcome();
  } catch (err) {
    $("club-body").hidden = true;
    $("club-title").textContent = t("club.title");
    status(err.status === 404 ? t("club.not_found") : failText(err), true);
  }
}

wireMoney(post);
for (const s of ["tonight", "period", "season"]) {
  $(`scope-${s}`).addEventListener("click", () => { scope = s; renderLedger(); renderSettle(); });
}
$("settle-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("settle-text").value);
    status(t("club.copied"));
  } catch (_err) {
    $("settle-text").select(); // no clipboard access: selected for the reader to copy
  }
});
$("settle-mark").addEventListener("click", () => {
  if (confirm(t("club.mark_confirm"))) post("/settle");
});
$("season-new").addEventListener("click", () => {
  if (confirm(t("club.season_confirm"))) post("/season");
});
shareButton($("settle-share"), () => ({
  title: t("share.settle_title", { club: data.club.name }), text: $("settle-text").value,
  url: location.origin + location.pathname,
}), "share.share_settle");
$("invite-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const made = await post("/invites", { label: $("invite-label").value });
  if (made) {
    $("invite-label").value = "";
    $("invite-made").hidden = false;
    $("invite-url").value = new URL(made.url, location.origin).toString();
    $("invite-made-print").textContent = [made.label, made.fingerprint].filter(Boolean).join(" · ");
    $("invite-url").select();
    const url = $("invite-url").value;
    shareButton($("invite-share"), () => ({ title: t("share.invite_title", { club: data.club.name }),
      text: t("share.invite_text", { club: data.club.name }), url }), "share.share_invite");
    $("invite-share").hidden = false;
    status(t("club.invite_once"));
  }
});
$("leave").addEventListener("click", async () => {
  if (!confirm(t("club.leave_confirm"))) return;
  try {
    await clubRequest("POST", `${api}/leave`, {});
    location.href = "/clubs";
  } catch (err) {
    status(failText(err), true);
  }
});
$("table-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const table = await clubRequest("POST", `${api}/tables`, { choices: choices() });
    location.href = table.url;
  } catch (err) {
    status(failText(err), true);
  }
});
$("save-defaults").addEventListener("click", async () => {
  try {
    await clubRequest("POST", `${api}/defaults`, choices());
    status(t("club.defaults_saved"));
  } catch (err) {
    status(failText(err), true);
  }
});
if (welcome) history.replaceState(null, "", location.pathname + location.search); // once only
load().then(() => {
  if (data) {
    loadChoices();
    startLive(`${api}/live`, onLive);
  }
});
