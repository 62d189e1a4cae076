// The scoring reference (/scoring): the patterns of a chosen rule set, as the scorer describes them
// (GET /api/reference), never hand-copied.
import "./site-header.js";
import { esc, getJSON, optionControls } from "./api.js";

const $ = (id) => document.getElementById(id);
let rules = null;
let controls = null;

const FAMILY_NAMES = {
  special: "Special wins (no complete hand needed, or instant)",
};

/** Docstring text for HTML: ``code`` becomes <code>. */
function docText(text) {
  return esc(text).replace(/``([^`]+)``/g, "<code>$1</code>");
}

function heading(family) {
  const text = family.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

async function init() {
  try {
    rules = await getJSON("/api/rules");
  } catch (err) {
    $("ref-error").textContent = err.message;
    return;
  }
  for (const name of Object.keys(rules.presets)) $("preset").add(new Option(name, name));
  const params = new URLSearchParams(location.search);
  if (params.get("preset") && rules.presets[params.get("preset")]) $("preset").value = params.get("preset");
  controls = optionControls($("rule-options"), rules.options, "rule-");
  controls.set(rules.presets[$("preset").value]);
  $("preset").addEventListener("change", () => {
    controls.set(rules.presets[$("preset").value]);
    show();
  });
  $("apply").addEventListener("click", show);
  show();
}

async function show() {
  $("ref-error").textContent = "";
  const q = new URLSearchParams({ preset: $("preset").value });
  for (const [k, v] of Object.entries(controls.changed())) {
    q.append("rule", `${k}=${v === null ? "" : v}`);
  }
  let ref;
  try {
    ref = await getJSON(`/api/reference?${q}`);
  } catch (err) {
    $("ref-error").textContent = err.message;
    return;
  }
  render(ref);
}

function render(ref) {
  $("ref-title").textContent = `Patterns (limit ${ref.rules.limit} tai, minimum ${ref.rules.min_tai})`;
  const families = new Map();
  for (const p of ref.patterns) {
    const fam = p.family || "other";
    if (!families.has(fam)) families.set(fam, []);
    families.get(fam).push(p);
  }
  let html = "";
  for (const [fam, list] of families) {
    html += `<h3>${esc(FAMILY_NAMES[fam] || heading(fam))}</h3>` +
      `<table class="data patterns"><thead><tr><th>pattern</th><th>id</th><th class="num">tai</th><th>what it takes</th></tr></thead><tbody>` +
      list.map((p) => `<tr data-pattern="${esc(p.id)}"><td><b>${esc(p.name)}</b> <span class="cjk">${esc(p.chinese || "")}</span></td>` +
        `<td><code>${esc(p.id)}</code></td><td class="num tai">${esc(p.tai_text ?? p.tai)}</td>` +
        `<td>${docText(p.description || "")}${p.extra ? " <i>(additional point: does not count toward the minimum)</i>" : ""}</td></tr>`).join("") +
      `</tbody></table>`;
  }
  $("reference").innerHTML = html;
  const docs = new Map(rules.options.map((o) => [o.name, o.doc]));
  $("rules-ref").innerHTML = `<table class="data"><tbody>${Object.entries(ref.rules).map(([k, v]) =>
    `<tr><td><code>${esc(k)}</code></td><td>${esc(v === null ? "(auto)" : v)}</td><td class="muted">${esc(docs.get(k) || "")}</td></tr>`).join("")}</tbody></table>`;
}

init();
