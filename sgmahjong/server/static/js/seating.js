// The table page before the match (/t/{code} while the table is in the lobby): the seats to take, the
// bot level, start and leave, and quick play's countdown. table.js calls `renderSeating()` on each
// table message while the table waits.
//
//   const seating = initSeating({state, seatName, toast, clearToast});   seating.renderSeating()
import { saveToken } from "./protocol.js";
import { esc, postJSON } from "./api.js";
import { button } from "./dom.js";
import { identityReady } from "./identity.js";
import { rankBadge } from "./ranks.js";
import { houseRulesInWords } from "./rulewords.js";
import { errorText } from "./errors.js";
import { lang, t } from "./i18n.js";
import { SEAT_LETTERS as WIND_LETTERS, WIND_GLYPH } from "./felt.js";

const $ = (id) => document.getElementById(id);
export const NAME_KEY = "sgmahjong:name";
// the seat's wind as its tile's glyph and in words; in 中文 the glyph says it (not "南 南")
const windName = (i) => (lang() === "zh" ? "" : ` ${t(`wind.${WIND_LETTERS[i]}`)}`);

export function initSeating(ctx) {
  const { state, seatName, toast, clearToast } = ctx;

  // -- seating (lobby status) ------------------------------------------------------------------------

  function renderSeating() {
    const tb = state.table;
    $("seating").hidden = false;
    $("play").hidden = true;
    $("share-link").textContent = location.origin + "/t/" + state.code;
    showCountdown(tb);
    const list = $("seat-list");
    list.innerHTML = "";
    const seated = state.seat !== null;
    for (const s of tb.seats) {
      const card = document.createElement("div");
      card.className = "seat-card" + (s.seat === state.seat ? " mine" : "");
      card.dataset.seat = String(s.seat);
      const mine = s.seat === state.seat;
      const who = s.kind === "empty" ? `<i>${t("table.empty")}</i>`
        : s.kind === "bot" ? esc(seatName(s.seat))
          : `${esc(mine ? t("table.name_you", { name: s.name }) : s.name)}` +
            `${s.connected ? "" : ` <span class="muted">${t("table.offline")}</span>`}`;
      card.innerHTML = `<div class="wind"><span class="cjk">${WIND_GLYPH[WIND_LETTERS[s.seat]]}</span>` +
        `${windName(s.seat)}</div><div class="who">${who}${s.kind === "human" && s.rank ? ` ${rankBadge(s.rank)}` : ""}</div>`;
      const avatar = state.avatars.of(s.seat, s.kind);
      if (avatar) card.querySelector(".who").prepend(avatar, " ");
      const buttons = document.createElement("div");
      if (s.kind === "empty" && !seated) {
        buttons.append(button(t("table.sit"), "join", () => join(s.seat)));
      }
      if (s.kind === "empty" && seated) {
        buttons.append(button(t("table.add_bot"), "add-bot", () =>
          state.conn.send({ type: "add_bot", seat: s.seat, level: $("bot-level").value })));
      }
      if (s.kind === "bot" && seated) {
        buttons.append(button(t("table.remove_bot"), "remove-bot", () =>
          state.conn.send({ type: "remove_bot", seat: s.seat }), "secondary"));
      }
      card.append(buttons);
      list.append(card);
    }
    $("join-form").hidden = seated;
    $("seated-controls").hidden = !seated;
    const changed = Object.entries(tb.changed_rules || {});
    $("rules-summary").textContent = changed.length
      ? t("table.house_rules", { list: houseRulesInWords(tb.changed_rules) })
      : t("table.default_rules");
  }

  async function join(seat) {
    const name = $("join-name").value.trim();
    if (!name) {
      $("join-name").focus();
      toast(t("table.name_first"));
      return;
    }
    try {
      await identityReady;
      const res = await postJSON(`/api/tables/${encodeURIComponent(state.code)}/join`, { name, seat });
      clearToast();
      try { localStorage.setItem(NAME_KEY, name); } catch (_err) { /* private mode */ }
      saveToken(state.code, res.token);
      state.token = res.token;
      state.conn.reconnect(res.token);
    } catch (err) {
      toast(err.code ? errorText(err) : err.message);
    }
  }

  // -- quick play: the countdown before bots fill the empty seats (the summary's "starts_in") ----------
  let countdownTimer = null;
  function showCountdown(tb) {
    clearInterval(countdownTimer);
    let el = document.getElementById("starts-in");
    if (tb.starts_in === null || tb.starts_in === undefined) {
      if (el) el.remove();
      return;
    }
    if (!el) {
      el = document.createElement("p");
      el.id = "starts-in";
      el.className = "starts-in";
      el.setAttribute("role", "status");
      $("seating").prepend(el);
    }
    const until = Date.now() + tb.starts_in * 1000;
    const tick = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      el.textContent = t("quick.starts_in", { s: left });
      if (!left) clearInterval(countdownTimer);
    };
    tick();
    countdownTimer = setInterval(tick, 1000);
  }
  return { renderSeating };
}
