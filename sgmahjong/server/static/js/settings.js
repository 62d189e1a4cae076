// The player's own table options, remembered in this browser: auto-pass claims (asked only for a win),
// auto-win, auto-discard the drawn tile when the hand is ready and the tile does not win, and the order
// of the hand. The automatic moves are chosen here from the view's legal actions and the seat's hints
// (never anything the server did not offer).
import { t } from "./i18n.js";

const KEY = "sgmahjong:settings";
const DEFAULTS = { autoPass: false, autoWin: false, autoDiscard: false, sort: "apart" };
export const SORTS = ["apart", "in", "honours_first"];

export function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    const out = { ...DEFAULTS, ...(saved && typeof saved === "object" ? saved : {}) };
    if (!SORTS.includes(out.sort)) out.sort = DEFAULTS.sort;
    return out;
  } catch (_err) {
    return { ...DEFAULTS };
  }
}

function save(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch (_err) {
    /* private mode: the settings last as long as the page */
  }
}

/** The settings panel (checkboxes and the order select); onChange(settings) after each change. */
export function settingsPanel(settings, onChange) {
  const panel = document.createElement("div");
  panel.className = "panel flow-settings";
  panel.id = "settings-panel";
  const h = document.createElement("h3");
  h.textContent = t("flow.settings.title");
  panel.append(h);
  const toggles = [["autoPass", "flow.settings.auto_pass"], ["autoWin", "flow.settings.auto_win"],
    ["autoDiscard", "flow.settings.auto_discard"]];
  for (const [name, key] of toggles) {
    const label = document.createElement("label");
    label.className = "flow-toggle";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = `set-${name}`;
    box.checked = Boolean(settings[name]);
    box.addEventListener("change", () => {
      settings[name] = box.checked;
      save(settings);
      onChange(settings);
    });
    const text = document.createElement("span");
    text.textContent = t(key);
    label.append(box, text);
    panel.append(label);
  }
  const label = document.createElement("label");
  label.className = "flow-toggle";
  const select = document.createElement("select");
  select.id = "set-sort";
  for (const s of SORTS) select.add(new Option(t(`flow.sort.${s}`), s));
  select.value = settings.sort;
  select.addEventListener("change", () => {
    settings.sort = select.value;
    save(settings);
    onChange(settings);
  });
  label.className = "flow-toggle flow-sort";
  const text = document.createElement("span");
  text.textContent = t("flow.settings.sort");
  label.append(text, select);
  panel.append(label);
  return panel;
}

const HONOUR = /^[ESWNCFP]$/;

/** The hand's entries ({tile, drawn}, from moves.myHand) in the chosen order. */
export function arrange(entries, settings) {
  if (settings.sort === "in") {
    return [...entries].sort((a, b) => rank(a.tile) - rank(b.tile)).map((e) => ({ ...e, drawn: false }));
  }
  if (settings.sort === "honours_first") {
    const rest = entries.filter((e) => !e.drawn);
    const honours = rest.filter((e) => HONOUR.test(e.tile));
    const suits = rest.filter((e) => !HONOUR.test(e.tile));
    return [...honours, ...suits, ...entries.filter((e) => e.drawn)];
  }
  return entries;
}

const SUIT_ORDER = { m: 0, p: 1, s: 2 };
const HONOUR_ORDER = "ESWNCFP";

function rank(tile) {
  if (tile.length === 2 && tile[1] in SUIT_ORDER) return SUIT_ORDER[tile[1]] * 10 + Number(tile[0]);
  const h = HONOUR_ORDER.indexOf(tile);
  return h >= 0 ? 30 + h : 50;
}

/**
 * The move the settings make on their own in view `v` (or null): a win (auto-win), a pass (auto-pass,
 * when no win is offered), or the drawn tile's discard (auto-discard, when the seat's hints say the hand
 * is ready, the drawn tile does not win and discarding it keeps the wait; nothing else is offered but
 * discards).
 */
export function autoMove(v, hints, settings) {
  if (!v || v.result) return null;
  const legal = v.legal_actions || [];
  if (!legal.length) return null;
  if (legal.includes("win")) return settings.autoWin ? "win" : null;
  if (settings.autoPass && legal.includes("pass")) return "pass";
  if (settings.autoDiscard && hints && hints.drawn_keeps_ready && !hints.drawn_wins) {
    const mine = v.seats && v.seats[v.seat];
    const drawn = mine && mine.drawn;
    if (drawn && drawn === hints.drawn && legal.every((a) => a.startsWith("discard "))) {
      const action = `discard ${drawn}`;
      if (legal.includes(action)) return action;
    }
  }
  return null;
}
