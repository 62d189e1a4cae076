// The table without sight: the announcer (announce.js), the keys that ask the table (ask.js), the hand
// walked tile by tile with the arrow keys, the result's payments as sentences, and the "Screen reader"
// panel (how much is announced, short tile names, screen-reader mode, a box to ask about any tile, the
// link to the keys page). table.js calls the hooks:
//
//   const a11y = initA11y({state, seatName, windOf})
//   a11y.onEvent(e)  a11y.onView(v)  a11y.onHints(msg)  a11y.afterRender()  a11y.decorateResult(el, v)
//   a11y.tileLabel(tile, index, count)   the name a hand tile is read by ("5 Bamboo, 3 of 14")
import { t } from "./i18n.js";
import { eventKind, paymentAmounts, paymentReason } from "./events.js";
import { createAnnouncer, seatPhraser } from "./announce.js";
import { answerKey, parseTileText, unseenAnswer } from "./ask.js";
import { loadPrefs, paymentSentences, savePrefs, sayTile, setShortNames, VERBOSITIES } from "./speech.js";

const $ = (id) => document.getElementById(id);
const HAND_MOVES = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];

/** Screen-reader mode: no motion, no call-outs (app.css and feel.js read the class). */
export function applySrMode(on) {
  document.documentElement.classList.toggle("sr-mode", Boolean(on));
}

function typing(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA") return true;
  return target.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "range"].includes(target.type);
}

export function initA11y(api) {
  const { state } = api;
  const prefs = loadPrefs();
  setShortNames(prefs.short);
  applySrMode(prefs.srMode);
  let hints = null;
  let lastDiscard = null;
  const canGoNext = () => state.status === "between_hands" && state.seat !== null && !state.readySent;
  const announcer = createAnnouncer($("announce"), () => ({
    me: state.seat, seatName: api.seatName, windOf: api.windOf, verbosity: prefs.verbosity, canGoNext: canGoNext(),
  }));

  function focusedTile() {
    const el = document.activeElement;
    const slot = el && el.closest ? el.closest("#hand .slot") : null;
    return slot ? slot.querySelector(".tile").dataset.tile : null;
  }

  function toggleVerbosity() {
    prefs.verbosity = VERBOSITIES[(VERBOSITIES.indexOf(prefs.verbosity) + 1) % VERBOSITIES.length];
    savePrefs(prefs);
    const select = $("a11y-verbosity");
    if (select) select.value = prefs.verbosity;
    return t(`ask.verbosity.${prefs.verbosity}`);
  }

  function question() {
    return { view: state.view, seat: state.seat, timer: state.timer, hints, lastDiscard, canGoNext: canGoNext(),
      seatName: api.seatName, windOf: api.windOf, focusedTile, announcer, toggleVerbosity };
  }

  /** Left / right (up / down) move through the hand, Home / End to its ends; the tile's name is read. */
  function moveInHand(slot, key) {
    const tiles = [...document.querySelectorAll("#hand .slot .tile")];
    const i = tiles.indexOf(slot.querySelector(".tile"));
    if (i < 0 || !tiles.length) return;
    const next = key === "Home" ? 0 : key === "End" ? tiles.length - 1
      : key === "ArrowLeft" || key === "ArrowUp" ? Math.max(0, i - 1) : Math.min(tiles.length - 1, i + 1);
    tiles[next].focus();
  }

  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !state.view || !state.table || state.table.status === "lobby") return;
    const target = ev.target;
    if (typing(target) || (target && target.tagName === "SELECT")) return;
    const slot = target && target.closest ? target.closest("#hand .slot") : null;
    if (slot && HAND_MOVES.includes(ev.key)) {
      ev.preventDefault();
      moveInHand(slot, ev.key);
      return;
    }
    if (ev.key === "/") {
      ev.preventDefault();
      const box = $("ask-tile");
      if (box) box.focus();
      return;
    }
    const answer = answerKey(ev, question());
    if (answer === undefined) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    if (answer) announcer.say(answer);
  }

  function panel() {
    if ($("a11y-panel")) return;
    const aside = document.querySelector("#play > aside");
    if (!aside) return;
    const box = document.createElement("div");
    box.className = "panel a11y-panel";
    box.id = "a11y-panel";
    const h = document.createElement("h3");
    h.textContent = t("a11y.settings");
    box.append(h);

    const verbosity = document.createElement("select");
    verbosity.id = "a11y-verbosity";
    for (const v of VERBOSITIES) verbosity.add(new Option(t(`a11y.verbosity.${v}`), v));
    verbosity.value = prefs.verbosity;
    verbosity.addEventListener("change", () => { prefs.verbosity = verbosity.value; savePrefs(prefs); });
    box.append(labelled(verbosity, t("a11y.verbosity"), "flow-toggle flow-sort"));

    const toggle = (id, name, key, apply) => {
      const input = document.createElement("input");
      input.type = "checkbox";
      input.id = id;
      input.checked = Boolean(prefs[name]);
      input.addEventListener("change", () => { prefs[name] = input.checked; savePrefs(prefs); apply(input.checked); });
      box.append(labelled(input, t(key), "flow-toggle", true));
    };
    toggle("a11y-short", "short", "a11y.short_names", setShortNames);
    toggle("a11y-sr", "srMode", "a11y.sr_mode", applySrMode);

    const form = document.createElement("form");
    form.className = "ask-tile";
    const input = document.createElement("input");
    input.type = "text";
    input.id = "ask-tile";
    input.autocomplete = "off";
    input.placeholder = t("ask.tile_box_hint");
    form.append(labelled(input, t("ask.tile_box"), "ask-tile-label"));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (!state.view) return;
      const tile = parseTileText(input.value);
      announcer.say(tile ? unseenAnswer(question(), tile) : t("ask.unseen_unknown", { text: input.value.trim() }));
    });
    box.append(form);

    const p = document.createElement("p");
    const a = document.createElement("a");
    a.href = "/keys";
    a.target = "_blank";
    a.textContent = t("a11y.keys_link");
    p.append(a);
    box.append(p);
    const keys = $("keys-panel");
    if (keys && keys.parentElement === aside) keys.before(box);
    else aside.append(box);
  }

  window.addEventListener("keydown", onKey, true);

  return {
    prefs,
    announcer,
    onEvent(e) {
      const kind = eventKind(e);
      if (kind === "hand_start") lastDiscard = null;
      if (kind === "discard") lastDiscard = { seat: e.seat, tile: e.tile };
      announcer.onEvent(e);
    },
    onView(v) {
      announcer.onView(v);
    },
    onHints(msg) {
      hints = msg.hints || null;
    },
    afterRender() {
      panel();
    },
    tileLabel(tile, index, count) {
      return t("ask.position", { tile: sayTile(tile), i: index + 1, n: count });
    },
    /** The result's payments, one sentence each, for screen readers (the table beside says it for the eye). */
    decorateResult(el, v) {
      const r = v && v.result;
      if (!r || el.querySelector(".pay-sentences")) return;
      const who = seatPhraser({ me: state.seat, seatName: api.seatName, windOf: api.windOf });
      const lines = [];
      for (const p of r.instant || []) {
        for (const sentence of paymentSentences(paymentAmounts(p), who, state.seat)) {
          lines.push(t("say.payment", { what: paymentReason(p.reason), sentences: sentence }));
        }
      }
      if (!r.drawn_game && r.payments) lines.push(...paymentSentences(r.payments, who, state.seat));
      if (!lines.length) return;
      const section = document.createElement("section");
      section.className = "pay-sentences sr-only";
      const h = document.createElement("h3");
      h.textContent = t("a11y.payments");
      const ul = document.createElement("ul");
      for (const line of lines) {
        const li = document.createElement("li");
        li.textContent = line;
        ul.append(li);
      }
      section.append(h, ul);
      const table = el.querySelector(".payments");
      if (table) (table.closest(".table-scroll") || table).after(section);
      else el.append(section);
    },
  };
}

function labelled(control, text, className, after = false) {
  const label = document.createElement("label");
  label.className = className;
  const span = document.createElement("span");
  span.textContent = text;
  if (after) label.append(control, " ", span);
  else label.append(span, " ", control);
  return label;
}
