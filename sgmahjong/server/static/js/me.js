// /me: this browser's player — display name, totals, net over time, the hands (newest first, with a
// link to each replay), export and delete. Data: GET /api/me (the session cookie), POST /api/players.
import { decode, esc, postJSON, presetName } from "./api.js";
import { signed } from "./dom.js";
import { errorText } from "./errors.js";
import { showTrouble } from "./trouble.js";
import { tableName } from "./names.js";
import { identityReady, rememberedName, rememberName } from "./identity.js";
import { avatarPicker } from "./avatars.js";
import { lang, shownAfter, t } from "./i18n.js";
import { initAccount, refresh as refreshAccount } from "./account.js";

const $ = (id) => document.getElementById(id);
const WIND_CJK = { E: "東", S: "南", W: "西", N: "北" };
const state = { page: 1, pages: 1, data: null };

async function fetchMe(page) {
  await identityReady;
  const res = await fetch(`/api/me?page=${page}`, { headers: { Accept: "application/json" } });
  return decode(res);
}

function percent(x) {
  return `${(100 * x).toFixed(1)}%`;
}

function renderTotals(tot) {
  const stats = [
    ["hands", String(tot.hands)], ["win_rate", percent(tot.win_rate)],
    ["deal_in_rate", percent(tot.deal_in_rate)],
    tot.wins ? ["average_win_tai", tot.average_win_tai.toFixed(2)] : ["no_wins", "–"], // no wins: no average
    ["net_per_hand", (tot.net_per_hand > 0 ? "+" : "") + tot.net_per_hand.toFixed(2)], ["net", signed(tot.net)],
  ];
  $("totals").innerHTML = stats.map(([key, value]) =>
    `<div class="stat" data-stat="${key}"><b>${esc(value)}</b>${esc(t(`me.stat.${key}`))}</div>`).join("");
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
    `aria-label="${esc(t("me.chart", { n: series.length, net: signed(nets[nets.length - 1]) }))}">` +
    `<line class="zero" x1="0" x2="${w}" y1="${y(0)}" y2="${y(0)}"/>` +
    `<polyline class="line" points="${points}"/></svg>`;
}

const COLUMNS = ["date", "table", "hand", "seat", "rules", "result", "tai", "net"];

/** The hands as a table (on a phone each row is a card, its cells labelled: app.css). The seat is the
 * wind the player held in that hand (the dealer is East), as the table and the replay name it. */
function renderHands(hands) {
  if (!hands.length) {
    $("hands").innerHTML = `<p class="muted">${esc(t("me.none"))}</p>`;
    return;
  }
  const label = (key) => ` data-label="${esc(t(`me.col.${key}`))}"`;
  const rows = hands.map((h) => {
    const when = new Date(h.ended * 1000).toLocaleString(lang() === "zh" ? "zh-CN" : undefined);
    const cls = h.result === "dealt in" ? "dealt-in" : h.result;
    const glyph = h.wind && lang() !== "zh" ? `<span class="cjk" aria-hidden="true">${WIND_CJK[h.wind]}</span> ` : "";
    const wind = h.wind ? `${glyph}${esc(t(`wind.${h.wind}`))}` : "–";
    return `<tr data-hand="${h.hand}" data-code="${esc(h.code)}"><td${label("date")}>${esc(when)}</td>` +
      `<td${label("table")}>${esc(tableName(h.table))}</td><td${label("hand")}>${h.hand}</td>` +
      `<td${label("seat")} data-wind="${esc(h.wind || "")}">${wind}</td><td${label("rules")}>${esc(presetName(h.preset))}</td>` +
      `<td${label("result")} class="${cls}" data-result="${esc(h.result)}">${esc(t(`me.result.${h.result}`))}</td>` +
      `<td${label("tai")} class="num">${h.tai || ""}</td><td${label("net")} class="num net">${signed(h.net)}</td>` +
      `<td class="card-wide"><a href="${esc(h.replay)}?seat=${h.seat}">${esc(t("me.replay"))}</a></td></tr>`;
  });
  const head = COLUMNS.map((key) =>
    `<th${key === "tai" || key === "net" ? " class=\"num\"" : ""}>${esc(t(`me.col.${key}`))}</th>`).join("");
  $("hands").innerHTML = `<div class="table-scroll"><table class="data cards-on-phone"><thead><tr>${head}<th></th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table></div>`;
}

async function load(page) {
  try {
    state.data = await fetchMe(page);
  } catch (err) {
    showTrouble($("hands"), err, () => load(page));
    return;
  }
  const d = state.data;
  state.page = d.page;
  state.pages = d.pages;
  if (d.name && !$("me-name").value) $("me-name").value = d.name;
  renderTotals(d.totals);
  renderChart(d.series);
  renderHands(d.hands);
  $("page-info").textContent = t("me.page", { page: d.page, pages: d.pages });
  $("newer").disabled = d.page <= 1;
  $("older").disabled = d.page >= d.pages;
}

async function exportHistory() {
  const res = await fetch("/api/me/export");
  if (!res.ok) {
    $("data-status").textContent = t("me.nothing");
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
  $("data-status").textContent = t("me.exported");
}

async function deleteHistory() {
  if (!window.confirm(t(state.data && state.data.account ? "account.confirm_delete" : "me.confirm_delete"))) return;
  const res = await fetch("/api/me", {
    method: "DELETE", headers: { "Content-Type": "application/json" }, body: "{}",
  });
  const body = await res.json();
  $("data-status").textContent = t("me.deleted", { n: body.deleted ?? 0 });
  $("me-name").value = "";
  if (body.account) await refreshAccount();
  await load(1);
}

$("name-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = $("me-name").value.trim();
  try {
    const res = await postJSON("/api/players", { name });
    rememberName(res.name);
    $("name-saved").textContent = t("me.saved");
  } catch (err) {
    $("name-saved").textContent = err.code ? errorText(err) : err.message;
  }
});
$("newer").addEventListener("click", () => load(state.page - 1));
$("older").addEventListener("click", () => load(state.page + 1));
$("export-btn").addEventListener("click", exportHistory);
$("delete-btn").addEventListener("click", deleteHistory);
$("me-name").value = rememberedName();
document.title = t("me.doc_title");
shownAfter(load(1));
initAccount(() => load(1));
avatarPicker($("avatar-picker"), $("avatar-saved"));
