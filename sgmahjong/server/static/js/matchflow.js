// The table page's match flow, kept apart from table.js (which calls these hooks): the plain-language
// log (also after a reload, from the server's `log` message), the seat's hints panel, the player's own
// options (auto-pass, auto-win, auto-discard, hand order) and their automatic moves, and at the end of
// the match the hand-by-hand results and the rematch.
//
//   const flow = initFlow({state, sendAction, seatName, toast});
//   flow.onEvent(e) -> words | null     flow.onLog(msg)    flow.onHints(msg)   flow.afterView()
//   flow.onRematch(msg)   flow.onTable()   flow.decorateResult(el)   flow.arrange(entries)
import { appendLog, fillLog } from "./tablelog.js";
import { renderHints } from "./hints.js";
import { arrange, autoMove, loadSettings, settingsPanel } from "./settings.js";
import { saveToken } from "./protocol.js";
import { esc, getJSON } from "./api.js";
import { button, scrollLater, signed } from "./dom.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const AUTO_DELAY_MS = 300; // an automatic move waits a moment, so the player sees what happened

export function initFlow(api) {
  const { state } = api;
  const settings = loadSettings();
  let hints = null;
  let autoTimer = null;
  let moving = false;

  const ctx = () => ({ seatName: api.seatName, mySeat: state.seat });

  function placePanels() {
    const aside = document.querySelector("#play > aside");
    if (!aside || $("settings-panel")) return;
    const panel = settingsPanel(settings, () => {
      if (state.view && !state.view.result) api.rerender();
      scheduleAuto();
    });
    const sheet = $("sheet-body"); // the table's options sheet (sheet.js)
    const keys = $("key-help");
    if (sheet) sheet.prepend(panel);
    else if (keys && keys.parentElement && keys.parentElement.parentElement === aside) keys.parentElement.before(panel);
    else aside.append(panel);
  }

  function scheduleAuto() {
    clearTimeout(autoTimer);
    if (state.seat === null || !state.view) return;
    const version = state.view.version;
    if (!autoMove(state.view, currentHints(), settings)) return;
    autoTimer = setTimeout(() => {
      if (!state.view || state.view.version !== version || state.pending) return;
      const move = autoMove(state.view, currentHints(), settings);
      if (move) api.sendAction(move);
    }, AUTO_DELAY_MS);
  }

  function currentHints() {
    const v = state.view;
    if (!hints || !v || hints.hand_number !== v.hand_number) return null;
    return hints;
  }

  // -- rematch and results at the end of the match -----------------------------------------------

  function rematchBox(el) {
    let box = el.querySelector(".flow-rematch");
    if (box) return box;
    box = document.createElement("div");
    box.className = "flow-rematch";
    if (state.seat !== null) {
      const b = button(t("flow.rematch"), "rematch", () => {
        if (state.conn.send({ type: "rematch" })) b.disabled = true;
      });
      box.append(b);
    }
    // "Back to the lobby" is the result panel's own link (result.js)
    const votes = document.createElement("span");
    votes.className = "rematch-votes muted";
    box.append(" ", votes);
    el.append(box);
    return box;
  }

  function updateRematch() {
    const el = $("result");
    if (!el || el.hidden || state.status !== "finished" || !state.table) return;
    const box = rematchBox(el);
    const r = state.table.rematch || { votes: [], code: null };
    const b = box.querySelector("[data-action=rematch]");
    if (b && r.votes.includes(state.seat)) b.disabled = true;
    const humans = state.table.seats.filter((s) => s.kind === "human" && s.connected);
    const asked = humans.filter((s) => r.votes.includes(s.seat)).map((s) => s.name);
    const waiting = humans.filter((s) => !r.votes.includes(s.seat)).map((s) => s.name);
    const parts = [];
    if (asked.length) parts.push(t("flow.rematch.asked", { names: asked.join(", ") }));
    if (asked.length && waiting.length) parts.push(t("flow.rematch.waiting", { names: waiting.join(", ") }));
    box.querySelector(".rematch-votes").textContent = parts.join(" — ");
    if (r.code && !moving) {
      const link = box.querySelector("a.rematch-link") || document.createElement("a");
      link.className = "rematch-link";
      link.href = `/t/${encodeURIComponent(r.code)}`;
      link.textContent = t("flow.rematch.open");
      box.append(" ", link);
    }
  }

  async function showResults(el) {
    let data;
    try {
      data = await getJSON(`/api/tables/${encodeURIComponent(state.code)}/results`);
    } catch (_err) {
      return;
    }
    if (!data.hands.length || el.querySelector("#hand-results")) return;
    const wrap = document.createElement("div");
    wrap.id = "hand-results";
    const h = document.createElement("h3");
    h.textContent = t("flow.results.title");
    const table = document.createElement("table");
    table.className = "data";
    const names = [0, 1, 2, 3].map((s) => `<th class="num">${esc(api.seatName(s))}</th>`).join("");
    const totals = [0, 0, 0, 0];
    const rows = data.hands.map((hand) => {
      hand.amounts.forEach((a, s) => { totals[s] += a; });
      let outcome = t("flow.results.draw");
      if (!hand.drawn_game && hand.winner !== null) {
        outcome = hand.self_drawn
          ? t("flow.results.win_self", { who: api.seatName(hand.winner), tai: hand.tai })
          : t("flow.results.win", { who: api.seatName(hand.winner), shooter: api.seatName(hand.shooter), tai: hand.tai });
      }
      return `<tr data-hand="${hand.number}"><td>${hand.number}</td><td>${esc(outcome)}</td>` +
        hand.amounts.map((a) => `<td class="num">${signed(a)}</td>`).join("") + "</tr>";
    });
    table.innerHTML = `<thead><tr><th>${esc(t("flow.results.hand"))}</th><th>${esc(t("flow.results.outcome"))}</th>${names}</tr></thead>` +
      `<tbody>${rows.join("")}</tbody><tfoot><tr class="totals"><th></th><th>${esc(t("flow.results.total"))}</th>` +
      totals.map((a) => `<th class="num">${signed(a)}</th>`).join("") + "</tr></tfoot>";
    wrap.append(h, table);
    // after the standings and the ranked change (ranked_end.js), whichever arrived first
    const before = el.querySelector("#ranked-end") || el.querySelector("#standings");
    if (before) before.after(wrap);
    else el.append(wrap);
  }

  return {
    settings,
    arrange: (entries) => arrange(entries, settings),
    onEvent(e) {
      return appendLog($("log"), e, ctx());
    },
    onLog(msg) {
      fillLog($("log"), msg.events || [], ctx());
    },
    onHints(msg) {
      hints = msg.hints || null;
      renderHints(currentHints(), state.view);
      scheduleAuto();
    },
    afterView() {
      placePanels();
      renderHints(currentHints(), state.view);
      scheduleAuto();
    },
    onTable() {
      updateRematch();
    },
    onRematch(msg) {
      if (!msg.code || moving) return;
      moving = true;
      if (state.token) saveToken(msg.code, state.token);
      api.toast(t("flow.rematch.moving"));
      location.assign(`/t/${encodeURIComponent(msg.code)}`);
    },
    /** A new result panel was filled: start it at its top; after the match, the results and rematch. */
    decorateResult(el) {
      scrollLater(el, "top");
      if (state.status === "finished" || (state.view && state.view.standings)) {
        updateRematch();
        rematchBox(el);
        updateRematch();
        showResults(el);
      }
    },
  };
}
