// The lobby (/): open a table with a preset, house rules and table options (all generated from
// GET /api/rules), then share its link; list the open tables.
import "./site-header.js";
import { esc, getJSON, optionControls, postJSON } from "./api.js";

const $ = (id) => document.getElementById(id);
let rules = null;
let ruleControls = null;
let tableControls = null;

async function init() {
  try {
    rules = await getJSON("/api/rules");
  } catch (err) {
    $("create-error").textContent = `Could not load the rule set: ${err.message}`;
    return;
  }
  for (const name of Object.keys(rules.presets)) $("preset").add(new Option(name, name));
  ruleControls = optionControls($("rule-options"), rules.options, "rule-");
  tableControls = optionControls($("table-options"), rules.table_options, "opt-");
  const applyPreset = () => ruleControls.set(rules.presets[$("preset").value] || {});
  $("preset").addEventListener("change", applyPreset);
  applyPreset();
  $("create-form").addEventListener("submit", create);
  refreshTables();
  setInterval(refreshTables, 5000);
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
    $("create-error").textContent = err.message;
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
    el.innerHTML = "<p class=\"muted\">No open tables yet: open one above.</p>";
    return;
  }
  el.innerHTML = `<table class="data"><thead><tr><th>table</th><th>status</th><th>players</th><th>rules</th><th></th>` +
    `</tr></thead><tbody>${data.tables.map((t) => {
      const players = t.seats.map((s) => (s.kind === "empty" ? "·" : esc(s.name || "bot"))).join(", ");
      const changed = Object.entries(t.changed_rules || {}).map(([k, v]) => `${esc(k)}=${esc(v)}`).join(", ") || "default";
      const free = t.seats.filter((s) => s.kind === "empty").length;
      const label = t.status === "lobby" && free ? `Join (${free} free)` : "Watch";
      return `<tr data-code="${esc(t.code)}"><td>${esc(t.name)}</td><td>${esc(t.status.replace("_", " "))}</td>` +
        `<td>${players}</td><td class="muted">${changed}</td><td><a href="/t/${encodeURIComponent(t.code)}">${label}</a></td></tr>`;
    }).join("")}</tbody></table>`;
}

init();
