// /me: this browser's player — display name, totals, net over time, the hands (newest first, with a
// link to each replay), export and delete. Data: GET /api/me (X-Player header), POST /api/players.
import { esc, postJSON } from "./api.js";
import { signed } from "./dom.js";
import { forgetIdentity, playerHeaders, playerIdentity, rememberName } from "./identity.js";

const $ = (id) => document.getElementById(id);
const SEATS = ["East", "South", "West", "North"];
const state = { page: 1, pages: 1, data: null };

async function fetchMe(page) {
  const res = await fetch(`/api/me?page=${page}`, { headers: { Accept: "application/json", ...playerHeaders() } });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

function percent(x) {
  return `${(100 * x).toFixed(1)}%`;
}

function renderTotals(t) {
  const stats = [
    ["hands played", String(t.hands)], ["win rate", percent(t.win_rate)],
    ["deal-in rate", percent(t.deal_in_rate)], ["average tai of wins", t.average_win_tai.toFixed(2)],
    ["net per hand", (t.net_per_hand > 0 ? "+" : "") + t.net_per_hand.toFixed(2)], ["net", signed(t.net)],
  ];
  $("totals").innerHTML = stats.map(([label, value]) =>
    `<div class="stat" data-stat="${esc(label)}"><b>${esc(value)}</b>${esc(label)}</div>`).join("");
}

/** The running net over the last hands as a small SVG line chart. */
function renderChart(series) {
  const el = $("chart");
  if (series.length < 2) {
    el.innerHTML = "";
    return;
  }
  const w = 600;
  const h = 140;
  const nets = series.map((p) => p.net);
  const lo = Math.min(0, ...nets);
  const hi = Math.max(0, ...nets);
  const span = hi - lo || 1;
  const x = (i) => (i / (series.length - 1)) * (w - 10) + 5;
  const y = (v) => h - 5 - ((v - lo) / span) * (h - 10);
  const points = nets.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  el.innerHTML = `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" role="img" ` +
    `aria-label="Net over your last ${series.length} hands, now ${signed(nets[nets.length - 1])}">` +
    `<line class="zero" x1="0" x2="${w}" y1="${y(0)}" y2="${y(0)}"/>` +
    `<polyline class="line" points="${points}"/></svg>`;
}

function renderHands(hands) {
  if (!hands.length) {
    $("hands").innerHTML = "<p class=\"muted\">No finished hands yet. Join a table from the lobby: " +
      "the hands you play there appear here once they end.</p>";
    return;
  }
  const rows = hands.map((h) => {
    const when = new Date(h.ended * 1000).toLocaleString();
    const cls = h.result === "dealt in" ? "dealt-in" : h.result;
    return `<tr data-hand="${h.hand}" data-code="${esc(h.code)}"><td>${esc(when)}</td><td>${esc(h.table)}</td>` +
      `<td>${h.hand}</td><td>${SEATS[h.seat]}</td><td>${esc(h.preset)}</td><td class="${cls}">${esc(h.result)}</td>` +
      `<td class="num">${h.tai || ""}</td><td class="num net">${signed(h.net)}</td>` +
      `<td><a href="${esc(h.replay)}?seat=${h.seat}">replay</a></td></tr>`;
  });
  $("hands").innerHTML = `<div class="table-scroll"><table class="data"><thead><tr><th>date</th><th>table</th>` +
    `<th>hand</th><th>seat</th><th>rules</th><th>result</th><th class="num">tai</th><th class="num">net</th>` +
    `<th></th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

async function load(page) {
  try {
    state.data = await fetchMe(page);
  } catch (err) {
    $("hands").textContent = err.message;
    return;
  }
  const d = state.data;
  state.page = d.page;
  state.pages = d.pages;
  if (d.name && !$("me-name").value) $("me-name").value = d.name;
  renderTotals(d.totals);
  renderChart(d.series);
  renderHands(d.hands);
  $("page-info").textContent = `page ${d.page} of ${d.pages}`;
  $("newer").disabled = d.page <= 1;
  $("older").disabled = d.page >= d.pages;
}

async function exportHistory() {
  const res = await fetch("/api/me/export", { headers: playerHeaders() });
  if (!res.ok) {
    $("data-status").textContent = "Nothing to export yet.";
    return;
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = "sgmahjong-history.jsonl";
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
  $("data-status").textContent = "Exported.";
}

async function deleteHistory() {
  if (!window.confirm("Delete your history? The hands stay at their tables, but they will no longer be linked to you.")) return;
  const res = await fetch("/api/me", {
    method: "DELETE", headers: { ...playerHeaders(), "Content-Type": "application/json" }, body: "{}",
  });
  const body = await res.json();
  forgetIdentity();
  $("data-status").textContent = `Deleted ${body.deleted ?? 0} hands.`;
  $("me-name").value = "";
  await load(1);
}

$("name-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = $("me-name").value.trim();
  try {
    const res = await postJSON("/api/players", { secret: playerIdentity().secret, name });
    rememberName(res.name);
    $("name-saved").textContent = "Saved.";
  } catch (err) {
    $("name-saved").textContent = err.message;
  }
});
$("newer").addEventListener("click", () => load(state.page - 1));
$("older").addEventListener("click", () => load(state.page + 1));
$("export-btn").addEventListener("click", exportHistory);
$("delete-btn").addEventListener("click", deleteHistory);
$("me-name").value = playerIdentity().name || "";
load(1);
