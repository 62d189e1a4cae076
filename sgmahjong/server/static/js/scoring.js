// The scoring reference (/scoring): the patterns of a chosen rule set, as the scorer describes them
// (GET /api/reference), never hand-copied.
import "./site-header.js";
import { choiceName, esc, getJSON, optionControls, optionDoc, optionName, patternLabel, presetName } from "./api.js";
import { has, lang, shownAfter, t } from "./i18n.js";
import { tileElement } from "./tiles.js";
import { parseHand } from "./notation.js";
import { whenIdle } from "./dom.js";
import EXAMPLES from "./pattern-examples.js";
import { showTrouble } from "./trouble.js";

const $ = (id) => document.getElementById(id);
let rules = null;
let controls = null;

/** A pattern's plain-language description for players (strings files), never the scorer's docstring. */
function describe(p) {
  return has(`pattern.${p.id}.desc`) ? t(`pattern.${p.id}.desc`) : "";
}

function familyName(family) {
  return has(`family.${family}`) ? t(`family.${family}`) : family.replaceAll("_", " ");
}

/** The tai column: the scorer's number, with the limit / fixed wording in the page's language. */
function taiText(p, rules) {
  if (p.kind === "limit" || (p.kind === "special" && p.tai === rules.limit && /^limit/.test(p.tai_text || ""))) {
    return t("scoring.limit", { limit: rules.limit });
  }
  const fixed = /^(\d+) \(at most the limit: (\d+)\)$/.exec(p.tai_text || "");
  if (fixed) return t("scoring.fixed", { tai: fixed[1], capped: fixed[2] });
  const text = p.tai_text ?? String(p.tai);
  if (has(`tai.${text}`)) return t(`tai.${text}`);
  // a wording the strings files do not know yet: its number in Chinese, the scorer's words in English
  return lang() === "zh" && /[A-Za-z]/.test(text) ? String(p.tai ?? text.replace(/[^\d+]/g, "")) : text;
}

async function init() {
  try {
    rules = await getJSON("/api/rules");
  } catch (err) {
    showTrouble($("ref-error"), err, () => location.reload());
    return;
  }
  for (const name of Object.keys(rules.presets)) $("preset").add(new Option(presetName(name), name));
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
  $("ref-title").textContent = t("scoring.patterns_of", { limit: ref.rules.limit, min: ref.rules.min_tai });
  const families = new Map();
  for (const p of ref.patterns) {
    const fam = p.family || "other";
    if (!families.has(fam)) families.set(fam, []);
    families.get(fam).push(p);
  }
  let html = "";
  for (const [fam, list] of families) {
    html += `<h3>${esc(familyName(fam))}</h3>` +
      `<div class="table-scroll" tabindex="0"><table class="data patterns"><thead><tr><th>${t("scoring.col.pattern")}</th>` +
      `<th class="num">${t("scoring.col.tai")}</th><th>${t("scoring.col.what")}</th></tr></thead><tbody>` +
      list.map((p) => `<tr data-pattern="${esc(p.id)}"><td><b>${esc(patternLabel(p.id) || p.name)}</b>` +
        `${lang() === "zh" ? "" : ` <span class="cjk" lang="zh-Hans">${esc(p.chinese || "")}</span>`}</td>` +
        `<td class="num tai">${esc(taiText(p, ref.rules))}</td>` +
        `<td class="desc">${esc(describe(p))}${p.extra ? ` <i>${t("scoring.extra")}</i>` : ""}</td></tr>`).join("") +
      `</tbody></table></div>`;
  }
  $("reference").innerHTML = html;
  // each family's example hands once the page is shown (most are below the first screen)
  for (const table of $("reference").querySelectorAll("table")) {
    whenIdle(() => {
      for (const row of table.querySelectorAll("tr[data-pattern]")) {
        const ex = EXAMPLES[row.dataset.pattern];
        if (ex && !row.querySelector(".pattern-example")) row.querySelector(".desc").append(exampleElement(ex));
      }
    });
  }
  const opts = new Map(rules.options.map((o) => [o.name, o]));
  const value = (v) => (v === null ? t("common.auto") : v === true ? t("common.on") : v === false ? t("common.off")
    : typeof v === "string" ? choiceName(v) : String(v));
  // a table wider than a phone scrolls sideways: focusable, so a keyboard can scroll it too
  $("rules-ref").innerHTML = `<div class="table-scroll" tabindex="0"><table class="data"><tbody>${Object.entries(ref.rules).map(([k, v]) =>
    `<tr data-option="${esc(k)}"><td>${esc(optionName(k))}</td><td>${esc(value(v))}</td>` +
    `<td class="muted">${esc(opts.has(k) ? optionDoc(opts.get(k)) : "")}</td></tr>`).join("")}</tbody></table></div>`;
}

/** How an example hand was won, in words: "on a discard", "self-drawn", "seat South", ... */
function exampleWords(ex) {
  const words = [];
  if (ex.special) words.push(t("scoring.ex.table"));
  else if (ex.heavenly || ex.earthly || ex.humanly) words.push(t(`pattern.${ex.heavenly ? "heavenly" : ex.earthly ? "earthly" : "humanly"}_hand`));
  else if (ex.replacement) words.push(t("scoring.ex.replacement"));
  else if (ex.robbed_kong) words.push(t("scoring.ex.robbed"));
  else if (ex.last_tile) words.push(t("scoring.ex.last"));
  else words.push(t(ex.self_drawn ? "scoring.ex.self_drawn" : "scoring.ex.discard"));
  if ((ex.seat || "E") !== "E" || (ex.wind || "E") !== "E") {
    words.push(t("scoring.ex.seat", { seat: t(`wind.${ex.seat || "E"}`), wind: t(`wind.${ex.wind || "E"}`) }));
  }
  for (const key of Object.keys(ex.rules || {})) words.push(t("scoring.ex.option", { option: optionName(key) }));
  return words.join(t("scoring.ex.sep"));
}

/** An example hand drawn with the site's tiles: concealed tiles, sets, the winning tile, bonus tiles. */
function exampleElement(ex) {
  const hand = parseHand(ex.hand);
  const wrap = document.createElement("div");
  wrap.className = "pattern-example";
  const tiles = document.createElement("span");
  tiles.className = "tiles";
  tiles.setAttribute("aria-hidden", "true");
  const group = (list, cls) => {
    const g = document.createElement("span");
    g.className = `ex-group ${cls}`;
    for (const tile of list) g.append(tileElement(tile, { size: "xs" }));
    if (list.length) tiles.append(g);
  };
  group(hand.concealed, "ex-concealed");
  for (const m of hand.melds) group(m.tiles, m.concealed ? "ex-kong" : "ex-set");
  if (hand.winning) group([hand.winning], "ex-win");
  group(hand.bonus, "ex-bonus");
  const cap = document.createElement("span");
  cap.className = "ex-caption muted";
  const code = document.createElement("code");
  code.textContent = ex.hand;
  cap.append(`${t("scoring.ex.label")} `, code, ` — ${exampleWords(ex)}`);
  wrap.append(tiles, cap);
  return wrap;
}

shownAfter(init());
