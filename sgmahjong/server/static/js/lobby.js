// The lobby (/): open a table with a preset, house rules and table options (all generated from
// GET /api/rules), then share its link; list the open tables.
import "./site-header.js";
import { esc, getJSON, optionControls, optionName, postJSON, presetName } from "./api.js";
import { showTrouble } from "./trouble.js";
import { t } from "./i18n.js";
import { playerName, tableName } from "./names.js";
import { avatarElement } from "./avatars.js";
import { rankBadge } from "./ranks.js";

// A first-time visitor (one who has not finished the tutorial on this device) is offered it.
try {
  if (!localStorage.getItem("sgmahjong_learned")) document.getElementById("learn-invite").hidden = false;
} catch (_err) { /* private mode: no invitation */ }

const $ = (id) => document.getElementById(id);
let rules = null;
let ruleControls = null;
let tableControls = null;

async function init() {
  try {
    rules = await getJSON("/api/rules");
  } catch (err) {
    showTrouble($("create-error"), err, () => location.reload());
    return;
  }
  for (const name of Object.keys(rules.presets)) $("preset").add(new Option(presetName(name), name));
  ruleControls = optionControls($("rule-options"), rules.options, "rule-");
  tableControls = optionControls($("table-options"), rules.table_options, "opt-");
  const applyPreset = () => ruleControls.set(rules.presets[$("preset").value] || {});
  $("preset").addEventListener("change", applyPreset);
  applyPreset();
  showBotLevels(rules.bot_level_info || []);
  $("create-form").addEventListener("submit", create);
  refreshTables();
  setInterval(refreshTables, 5000);
}

// the bot levels offered to people, each by its name and one line about it
function showBotLevels(levels) {
  $("bot-levels").innerHTML = levels.map((lv) =>
    `<div class="bot-level" data-level="${esc(lv.level)}"><dt>${esc(t(`bot.${lv.level}`))}</dt>` +
    `<dd>${esc(t(`botlevel.${lv.level}`))}</dd></div>`).join("");
}

async function create(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const body = {
    name: $("table-name").value.trim(),
    preset: $("preset").value,
    rules: ruleControls.changed(),
    options: tableControls.changed(),
    private: $("private").checked,
  };
  try {
    const res = await postJSON("/api/tables", body);
    const link = location.origin + res.url;
    $("created-link").textContent = link;
    $("created-go").href = res.url;
    $("created").hidden = false;
    refreshTables();
  } catch (err) {
    showTrouble($("create-error"), err);
  }
}

async function refreshTables() {
  let data;
  try {
    data = await getJSON("/api/tables");
  } catch (_err) {
    return;
  }
  const el = $("tables");
  if (!data.tables.length) {
    el.innerHTML = `<p class="muted">${t("lobby.no_tables")}</p>`;
    return;
  }
  el.innerHTML = `<div class="table-scroll"><table class="data cards-on-phone"><thead><tr><th>${t("lobby.col.table")}</th>` +
    `<th>${t("lobby.col.status")}</th><th>${t("lobby.col.players")}</th><th>${t("lobby.col.rules")}</th><th><span class="sr-only">${t("a11y.col.open")}</span></th>` +
    `</tr></thead><tbody>${data.tables.map((tb) => {
      const players = tb.seats.map((s, i) => (s.kind === "empty" ? "·"
        : `<span class="lobby-seat">${seatAvatar(s, i)}${esc(playerName(tb.seats, i))}${seatRank(s)}</span>`))
        .join(", ");
      const changed = Object.entries(tb.changed_rules || {}).map(([k, v]) => `${esc(optionName(k))}=${esc(v)}`)
        .join(", ") || t("lobby.default_rules");
      const free = tb.seats.filter((s) => s.kind === "empty").length;
      const label = tb.status === "lobby" && free ? t("lobby.join", { n: free }) : t("lobby.watch");
      const col = (key) => ` data-label="${esc(t(`lobby.col.${key}`))}"`;
      return `<tr data-code="${esc(tb.code)}"><td${col("table")}>${esc(tableName(tb.name))}</td><td${col("status")}>${esc(t(`status.${tb.status}`))}</td>` +
        `<td${col("players")}>${players}</td><td${col("rules")} class="muted">${changed}</td>` +
        `<td class="card-wide"><a class="button small" href="/t/${encodeURIComponent(tb.code)}">${label}</a></td></tr>`;
    }).join("")}</tbody></table></div>`;
}

init();

// -- avatars: a seat's picture beside the name (a bot's dragon; none for a player who chose none) ----------
function seatAvatar(s, i) {
  const id = s.kind === "bot" ? `bot:${i}` : s.avatar;
  return id ? avatarElement(id).outerHTML : "";
}

// -- accounts: a signed-in player's rank beside the name ------------------------------------------------
function seatRank(s) {
  return s.kind === "human" && s.rank ? ` ${rankBadge(s.rank)}` : "";
}
