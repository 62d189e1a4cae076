// HTTP helpers and the rule-option widgets shared by the lobby, the reference and the calculator.

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

async function decode(res) {
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

function rangeText(opt) {
  if (opt.choices) return opt.choices.join(" / ");
  if (opt.type === "bool") return "on / off";
  if (opt.minimum !== undefined) return `${opt.minimum} – ${opt.maximum}`;
  return "";
}

function valueText(value) {
  if (value === true) return "on";
  if (value === false) return "off";
  if (value === null || value === undefined) return "(auto)";
  return String(value);
}

/** A table of rule options (name, default, values, meaning) from GET /api/rules. */
export function renderOptionsTable(el, rules) {
  const rows = rules.options.map((o) =>
    `<tr><td><code>${esc(o.name)}</code></td><td>${esc(valueText(o.default))}</td>` +
    `<td>${esc(rangeText(o))}</td><td>${esc(o.doc)}</td></tr>`).join("");
  const presets = Object.entries(rules.presets).map(([name, values]) => {
    const diff = Object.entries(values).filter(([k, v]) => {
      const opt = rules.options.find((o) => o.name === k);
      return opt && opt.default !== v;
    });
    const text = diff.length ? diff.map(([k, v]) => `${k} = ${valueText(v)}`).join(", ") : "the defaults";
    return `<li><b>${esc(name)}</b>: ${esc(text)}</li>`;
  }).join("");
  el.innerHTML = `<p>Presets:</p><ul>${presets}</ul>` +
    `<table class="data"><thead><tr><th>option</th><th>default</th><th>values</th><th>meaning</th></tr></thead>` +
    `<tbody>${rows}</tbody></table>`;
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
    label.title = opt.doc;
    const name = document.createElement("span");
    name.innerHTML = `${esc(opt.name.replaceAll("_", " "))}<br><span class="doc">${esc(opt.doc)}</span>`;
    let input;
    if (opt.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
    } else if (opt.choices) {
      input = document.createElement("select");
      for (const c of opt.choices) input.add(new Option(c, c));
    } else {
      input = document.createElement("input");
      input.type = "number";
      if (opt.minimum !== undefined) input.min = opt.minimum;
      if (opt.maximum !== undefined) input.max = opt.maximum;
      input.step = opt.type === "int" ? "1" : "any";
      if (opt.default === null) input.placeholder = "auto";
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

/** Map pattern id -> "English name 中文" from the scoring reference (empty map on failure). */
export async function patternNames() {
  const names = new Map();
  try {
    const ref = await getJSON("/api/reference");
    for (const p of ref.patterns || []) {
      if (p.id && p.name) names.set(p.id, p.chinese ? `${p.name} ${p.chinese}` : p.name);
    }
  } catch (_err) {
    /* ids are shown as they are */
  }
  return names;
}
