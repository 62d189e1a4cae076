// HTTP helpers and the rule-option widgets shared by the lobby, the reference and the calculator.
import { has, lang, t } from "./i18n.js";

/** GET a JSON document; throws Error(reason) on an HTTP error. */
export async function getJSON(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  return decode(res);
}

/** POST a JSON body; throws Error(reason) on an HTTP error (the server's {"error": reason}). */
export async function postJSON(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  return decode(res);
}

/** The JSON of a fetch() answer; throws Error(reason) on an HTTP error (status, code, params set). */
export async function decode(res) {
  let data = null;
  try {
    data = await res.json();
  } catch (_err) {
    data = null;
  }
  if (!res.ok) {
    const reason = data && data.error ? data.error : `HTTP ${res.status}`;
    const err = new Error(reason);
    err.status = res.status;
    if (data && data.code) err.code = data.code;
    if (data && data.params) err.params = data.params;
    throw err;
  }
  return data;
}

/** Escape text for innerHTML. */
export function esc(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

/** An option's name, meaning and choice labels in the page's language (the server's text otherwise). */
export function optionName(name) {
  return has(`optname.${name}`) ? t(`optname.${name}`) : name.replaceAll("_", " ");
}

export function optionDoc(opt) {
  return has(`rule.${opt.name}`) ? t(`rule.${opt.name}`) : opt.doc;
}

export function choiceName(value) {
  return has(`choice.${value}`) ? t(`choice.${value}`) : String(value);
}

export function presetName(name) {
  return has(`preset.${name}`) ? t(`preset.${name}`) : name;
}

function rangeText(opt) {
  if (opt.choices) return opt.choices.map(choiceName).join(" / ");
  if (opt.type === "bool") return `${t("common.on")} / ${t("common.off")}`;
  if (opt.minimum !== undefined) return `${opt.minimum} – ${opt.maximum}`;
  return "";
}

function valueText(value) {
  if (value === true) return t("common.on");
  if (value === false) return t("common.off");
  if (value === null || value === undefined) return t("common.auto");
  return typeof value === "string" ? choiceName(value) : String(value);
}

/** A table of rule options (name, default, values, meaning) from GET /api/rules. */
export function renderOptionsTable(el, rules) {
  const rows = rules.options.map((o) =>
    `<tr data-option="${esc(o.name)}"><td>${esc(optionName(o.name))}</td><td>${esc(valueText(o.default))}</td>` +
    `<td>${esc(rangeText(o))}</td><td>${esc(optionDoc(o))}</td></tr>`).join("");
  const presets = Object.entries(rules.presets).map(([name, values]) => {
    const diff = Object.entries(values).filter(([k, v]) => {
      const opt = rules.options.find((o) => o.name === k);
      return opt && opt.default !== v;
    });
    const text = diff.length ? diff.map(([k, v]) => `${optionName(k)} = ${valueText(v)}`).join(", ") : t("options.defaults");
    return `<li><b>${esc(presetName(name))}</b>: ${esc(text)}</li>`;
  }).join("");
  el.innerHTML = `<p>${t("options.presets")}</p><ul>${presets}</ul>` +
    `<div class="table-scroll"><table class="data"><thead><tr><th>${t("options.col.option")}</th>` +
    `<th>${t("options.col.default")}</th><th>${t("options.col.values")}</th><th>${t("options.col.meaning")}</th></tr></thead>` +
    `<tbody>${rows}</tbody></table></div>`;
}

/**
 * Build form controls for a list of option descriptions (RuleSet.describe or table_options) inside
 * `el`. Returns {set(values), values(), changed()}: values() reads every control; changed() only
 * those that differ from `baseline` (which set() replaces).
 */
export function optionControls(el, options, prefix) {
  el.innerHTML = "";
  el.classList.add("options-grid");
  const inputs = new Map();
  let baseline = {};
  for (const opt of options) {
    const label = document.createElement("label");
    label.title = optionDoc(opt);
    const name = document.createElement("span");
    name.innerHTML = `${esc(optionName(opt.name))}<br><span class="doc">${esc(optionDoc(opt))}</span>`;
    let input;
    if (opt.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
    } else if (opt.choices) {
      input = document.createElement("select");
      for (const c of opt.choices) input.add(new Option(choiceName(c), c));
    } else {
      input = document.createElement("input");
      input.type = "number";
      if (opt.minimum !== undefined) input.min = opt.minimum;
      if (opt.maximum !== undefined) input.max = opt.maximum;
      input.step = opt.type === "int" ? "1" : "any";
      if (opt.default === null) input.placeholder = t("common.auto");
    }
    input.name = `${prefix}${opt.name}`;
    input.dataset.option = opt.name;
    inputs.set(opt.name, { input, opt });
    label.append(name, input);
    el.append(label);
  }
  const api = {
    set(values) {
      baseline = { ...values };
      for (const [key, { input, opt }] of inputs) {
        const v = key in values ? values[key] : opt.default;
        if (opt.type === "bool") input.checked = Boolean(v);
        else input.value = v === null || v === undefined ? "" : String(v);
      }
    },
    values() {
      const out = {};
      for (const [key, { input, opt }] of inputs) {
        if (opt.type === "bool") out[key] = input.checked;
        else if (opt.choices) out[key] = input.value;
        else if (input.value === "") out[key] = null;
        else out[key] = opt.type === "int" ? parseInt(input.value, 10) : Number(input.value);
      }
      return out;
    },
    changed() {
      const all = api.values();
      const out = {};
      for (const [key, { opt }] of inputs) {
        const base = key in baseline ? baseline[key] : opt.default;
        if (all[key] !== base && !(all[key] === null && base === undefined)) out[key] = all[key];
      }
      return out;
    },
  };
  api.set({});
  return api;
}

/** A pattern's name in the page's language (English pages add the Chinese name), or null. */
export function patternLabel(id, chinese = "") {
  if (!has(`pattern.${id}`)) return null;
  const name = t(`pattern.${id}`);
  if (lang() === "zh") return name;
  return chinese && !name.includes(chinese) && name !== chinese ? `${name} ${chinese}` : name;
}

/** Map pattern id -> its name (patternLabel, else the scorer's) from the scoring reference. */
export async function patternNames() {
  const names = new Map();
  try {
    const ref = await getJSON("/api/reference");
    for (const p of ref.patterns || []) {
      if (p.id && p.name) {
        names.set(p.id, patternLabel(p.id, p.chinese) || (p.chinese ? `${p.name} ${p.chinese}` : p.name));
      }
    }
  } catch (_err) {
    /* ids are shown as they are */
  }
  return names;
}
