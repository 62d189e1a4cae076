// The scoring calculator (/calculator): a hand (picked as tiles, or typed in notation) and the
// circumstances of the win, scored by the server's own scorer (POST /api/score, the same function as `sgmahjong score --json`).
// Offline, the same Python scores it in the page when the player kept the offline scorer (offline-scorer.js).
import "./site-header.js";
import { decode, esc, getJSON, optionControls, patternNames, postJSON, presetName } from "./api.js";
import { has, t } from "./i18n.js";
import { errorText } from "./errors.js";
import { parseHand } from "./notation.js";
import { initKeepControl, scoreOffline, scorerInfo } from "./offline-scorer.js";
import { initPicker } from "./picker.js";

const $ = (id) => document.getElementById(id);
let controls = null;
let rules = null;
let names = new Map();
// Offline, the offline scorer answers when this device keeps it; else the hand stays on the form and is
// scored once the server answers again: at the browser's "online" event, and on a retry every RETRY_MS
// meanwhile (online without the server). A hand the service worker kept an answer for is answered
// offline at once (sw.js).
const RETRY_MS = 5000;
let waiting = false;
let retryTimer = null;

/** The notation field's problem, if it has one (the picker shows the hand as tiles). */
function preview() {
  const el = $("hand-preview");
  try {
    parseHand($("hand").value);
    el.textContent = "";
  } catch (err) {
    el.textContent = err.key ? t(err.key, err.params) : err.message;
  }
}

async function init() {
  $("calc-form").addEventListener("submit", calculate);
  $("hand").addEventListener("input", preview);
  initPicker($("picker"), $("hand"), preview);
  preview();
  initKeepControl($("offline-scorer"));
  try {
    rules = await getJSON("/api/rules");
    for (const name of Object.keys(rules.presets)) $("preset").add(new Option(presetName(name), name));
    controls = optionControls($("rule-options"), rules.options, "rule-");
    controls.set(rules.presets[$("preset").value]);
    $("preset").addEventListener("change", () => controls.set(rules.presets[$("preset").value]));
  } catch (_err) {
    /* the calculator still works with the default rules */
  }
  names = await patternNames();
}

/** The form's hand and circumstances as the body of POST /api/score. */
function formBody() {
  const body = {
    hand: $("hand").value,
    preset: $("preset").value || "default",
    rules: controls ? controls.changed() : {},
    seat: $("seat").value,
    wind: $("wind").value,
    self_drawn: $("self_drawn").checked,
    replacement: $("replacement").value || null,
    robbed_kong: $("robbed_kong").checked,
    last_tile: $("last_tile").checked,
    heavenly: $("special").value === "heavenly",
    earthly: $("special").value === "earthly",
    humanly: $("special").value === "humanly",
  };
  if ($("shooter").value) body.shooter = $("shooter").value;
  if ($("bao").value) body.bao = $("bao").value;
  return body;
}

async function calculate(ev) {
  ev.preventDefault();
  await score();
}

/** Whether `err` says the server cannot be reached (the service worker's 503 "offline", or no worker). */
function unreachable(err) {
  return err.code === "offline" || err instanceof TypeError;
}

/** The server's answer to `body`; when the server cannot be reached, the offline scorer's (the same
 * JSON) if this device keeps it. */
async function answer(body, out) {
  try {
    return await postJSON("/api/score", body);
  } catch (err) {
    if (!unreachable(err)) throw err;
    const loading = () => {
      out.innerHTML = `<p class="muted" id="calc-loading">${esc(t("calc.offline.loading"))}</p>`;
    };
    let res = null;
    try {
      res = await scoreOffline(body, loading);
    } catch (_failed) {
      /* the scorer did not start (its files gone from the cache): as without it */
    }
    if (!res) throw err;
    return decode(res);
  }
}

/** The message of a hand waiting for the server: it says when the offline scorer is not kept here. */
async function offlineText() {
  const info = await scorerInfo().catch(() => null);
  const missing = info && info.available && !info.kept;
  return missing ? `${t("error.offline")} ${t("calc.offline.not_kept")}` : t("error.offline");
}

/** Score the form's hand; `again`: a retry of the hand waiting for the server (its message stays
 * until the answer comes). */
async function score(again = false) {
  const body = formBody();
  waiting = false;
  clearTimeout(retryTimer);
  const out = $("calc-result");
  out.hidden = false;
  if (!again) out.innerHTML = "";  // the last hand's result goes at once: never read as this one's
  if (!body.hand.trim()) {
    out.innerHTML = `<p class="error" id="calc-error">${esc(t("pages.pick.empty"))}</p>`;
    reveal(out);
    return;
  }
  out.setAttribute("aria-busy", "true");
  try {
    const res = await answer(body, out);
    render(res);
  } catch (err) {
    const offline = unreachable(err);
    if (offline) {
      waiting = true;
      retryTimer = setTimeout(retry, RETRY_MS);
    }
    if (!(offline && again)) {
      const text = offline ? await offlineText() : err.code ? errorText(err) : err.message;
      out.innerHTML = `<p class="error" id="calc-error"${offline ? ' data-waiting=""' : ""}>${esc(text)}</p>`;
    }
  } finally {
    out.removeAttribute("aria-busy");
    reveal(out);
  }
}

/** Bring the answer into view (on a phone it lands below the form, out of sight). */
function reveal(out) {
  const box = out.getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight) out.scrollIntoView({ block: "start" });
}

/** Score the waiting hand (back online, or the next retry). */
function retry() {
  if (waiting) score(true);
}

addEventListener("online", retry);

/** Why the hand is not a win, in the page's language (the server's English text for a code we do not know). */
export function reasonText(res) {
  const code = res.reason_code;
  if (!code || !has(`calc.reason.${code}`)) return res.reason || "";
  const params = { ...(res.reason_params || {}) };
  if (code === "rule_off" && params.rule) {
    params.rule = has(`optname.${params.rule}`) ? t(`optname.${params.rule}`) : params.rule;
  }
  return t(`calc.reason.${code}`, params);
}

function render(res) {
  const out = $("calc-result");
  const patterns = res.patterns || [];
  const head = res.valid === false
    ? `<h2 class="error">${esc(t("calc.not_a_win", { reason: reasonText(res) }))}</h2>`
    : `<h2>${esc(t("calc.tai", { tai: res.tai, limit: res.limit ? t("result.limit") : "" }))}</h2>`;
  let html = head;
  if (patterns.length) {
    html += `<table class="data patterns"><thead><tr><th>${t("result.col.pattern")}</th>` +
      `<th class="num">${t("result.col.tai")}</th></tr></thead><tbody>` +
      patterns.map((p) => `<tr data-pattern="${esc(p.id || p.name)}"><td>${esc(names.get(p.id || p.name) || p.title || p.name || p.id)}` +
        `${p.chinese && !names.has(p.id || p.name) ? ` <span class="cjk">${esc(p.chinese)}</span>` : ""}</td><td class="num">${esc(p.tai)}</td></tr>`).join("") +
      `<tr><th>${t("result.total")}</th><th class="num">${esc(res.tai)}</th></tr></tbody></table>`;
  }
  const pay = res.payments;
  if (pay && typeof pay === "object") {
    html += `<h3>${t("calc.payments")}</h3>`;
    if (Array.isArray(pay)) {
      html += `<table class="data"><tbody>${pay.map((a, s) => `<tr><td>${t(`wind.${"ESWN"[s]}`)}</td>` +
        `<td class="num">${a > 0 ? "+" : ""}${esc(a)}</td></tr>`).join("")}</tbody></table>`;
    } else {
      const seatNames = { E: t("wind.E"), S: t("wind.S"), W: t("wind.W"), N: t("wind.N") };
      html += `<table class="data payments"><tbody>${Object.entries(pay).map(([k, v]) =>
        `<tr data-seat="${esc(k)}"><td>${esc(seatNames[k] || k.replaceAll("_", " "))}</td><td class="num">` +
        `${typeof v === "number" && v > 0 ? "+" : ""}${esc(Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : v)}</td></tr>`).join("")}</tbody></table>`;
    }
  }
  out.innerHTML = html;
}

init();
