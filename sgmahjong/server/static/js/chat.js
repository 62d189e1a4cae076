// Chat at the table (docs/talk.md): messages, quick phrases and emotes, beside the table and as a
// bubble by the speaker's seat. Everything a player typed is shown with textContent (never HTML).
// Muting a seat "for me" is kept in this browser (localStorage, per table); the host's mute for
// everyone is the server's (chat_mute). Keys: T writes a message, J opens the emotes.
import { t } from "./i18n.js";
import { ANIMAL_SHAPES } from "./tiles.js";
import { scrollLater } from "./dom.js";

const MUTE_KEY = "sgmahjong:chat-mute:";
const SHOWN_MAX = 100; // messages kept in the list
const BUBBLE_MS = 4000;
const SPECTATORS = "s"; // the mute key of the spectators (seat null)
const UNNAMED = "Spectator"; // the server's name for a spectator without a display name

const FACE = (mouth, extra = "") => `<circle cx="30" cy="30" r="20" fill="#fbbf24"/>` +
  `<circle cx="23" cy="26" r="2.6" fill="#1f2937"/><circle cx="37" cy="26" r="2.6" fill="#1f2937"/>` +
  `<path d="${mouth}" stroke="#1f2937" stroke-width="2.4" fill="none" stroke-linecap="round"/>` + extra;
const EMOTE_SHAPES = {
  cat: ANIMAL_SHAPES[0],
  rat: ANIMAL_SHAPES[1],
  rooster: ANIMAL_SHAPES[2],
  centipede: ANIMAL_SHAPES[3],
  laugh: () => FACE("M20 34 Q30 46 40 34Z"),
  cry: () => FACE("M22 40 Q30 33 38 40", `<path d="M21 31 Q19 37 21 39 Q23 37 21 31Z" fill="#3b82f6"/>`),
  angry: () => FACE("M22 40 Q30 35 38 40", `<path d="M18 19 L27 23 M42 19 L33 23" stroke="#b91c1c" stroke-width="2.4"/>`),
  heart: () => `<path d="M30 48 C10 34 12 16 24 16 C28 16 30 20 30 22 C30 20 32 16 36 16 C48 16 50 34 30 48Z" fill="#dc2626"/>`,
};

/** An emote as an SVG sticker (a known id only: the server refuses others). */
export function emoteElement(id, size = 40) {
  const shape = EMOTE_SHAPES[id];
  const span = document.createElement("span");
  span.className = "emote";
  span.dataset.emote = id;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", t(`chat.emote.${id}`));
  if (shape) {
    span.innerHTML = `<svg viewBox="0 0 60 60" width="${size}" height="${size}" aria-hidden="true">` +
      `<circle cx="30" cy="30" r="29" fill="#fef3c7" stroke="#b45309" stroke-width="1.5"/>${shape()}</svg>`;
  }
  return span;
}

/** The text a message shows (a phrase and an emote's name in the viewer's language). */
export function messageText(m) {
  if (m.kind === "phrase") return t(`chat.phrase.${m.body}`);
  if (m.kind === "emote") return t(`chat.emote.${m.body}`);
  return m.body;
}

/** A spectator's name in a message: their display name, or "Spectator" in the viewer's language for
 * one without a name. */
export function spectatorName(m) {
  return m.name && m.name !== UNNAMED ? m.name : t("chat.spectator");
}

/** One message as a list item: the speaker's name, then the text (or the sticker). */
export function messageElement(m, name) {
  const li = document.createElement("li");
  li.className = `chat-msg chat-${m.kind}`;
  li.dataset.seat = m.seat === null ? SPECTATORS : String(m.seat);
  const who = document.createElement("b");
  who.className = "chat-name";
  who.textContent = name;
  const body = document.createElement("span");
  body.className = "chat-body";
  if (m.kind === "emote") body.append(emoteElement(m.body, 28));
  else body.textContent = messageText(m);
  li.append(who, " ", body);
  return li;
}

/** The chat panel of the table page. `opts`: {send(msg) -> bool, mySeat(), seatName(seat),
 * seatKind(seat) ("human", "bot" or "empty"), positionOf(seat) (bottom, right, top, left on the felt),
 * code}. The mute list names the other human seats as they are now (redrawn when someone sits or
 * leaves: onSeat); bots and empty seats say nothing, so they are never listed. */
export function initChat(opts) {
  const state = { log: [], chat: null, mutedForMe: loadMutes(opts.code) };
  const panel = document.createElement("div");
  panel.className = "panel chat-panel";
  panel.id = "chat-panel";
  panel.innerHTML = `<h3></h3><p class="muted chat-watchers" id="chat-watchers" hidden></p><ol id="chat-list" class="chat-list" aria-live="polite"></ol>
    <div class="chat-phrases" id="chat-phrases"></div>
    <div class="chat-emotes" id="chat-emotes" hidden></div>
    <form class="chat-form" id="chat-form" autocomplete="off">
      <input id="chat-input" type="text" maxlength="200" enterkeyhint="send">
      <button type="submit" id="chat-send"></button>
      <button type="button" class="secondary" id="chat-emote-btn" aria-expanded="false"></button>
    </form>
    <details class="chat-mutes"><summary></summary><div id="chat-mutes"></div></details>
    <p class="muted chat-off" id="chat-off" hidden></p>`;
  const q = (sel) => panel.querySelector(sel);
  q("h3").textContent = t("chat.title");
  q("#chat-input").placeholder = t("chat.placeholder");
  q("#chat-input").setAttribute("aria-label", t("chat.placeholder"));
  q("#chat-send").textContent = t("chat.send");
  q("#chat-emote-btn").append(emoteElement("laugh", 24));
  q("#chat-emote-btn").title = t("chat.emotes_key");
  q("#chat-emote-btn").setAttribute("aria-label", t("chat.emotes_key"));
  q("summary").textContent = t("chat.mute_title");

  const say = (kind, body) => opts.send({ type: "chat", kind, body });
  q("#chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = q("#chat-input");
    const text = input.value;
    if (!text.trim()) return;
    if (say("text", text)) input.value = "";
  });
  const emotes = q("#chat-emotes");
  const toggleEmotes = (open) => {
    emotes.hidden = !(open ?? emotes.hidden);
    q("#chat-emote-btn").setAttribute("aria-expanded", String(!emotes.hidden));
    if (!emotes.hidden) emotes.querySelector("button")?.focus();
  };
  q("#chat-emote-btn").addEventListener("click", () => toggleEmotes());

  function fillChoices() {
    const c = state.chat;
    const phrases = q("#chat-phrases");
    phrases.replaceChildren(...c.phrases.map((id) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "chat-phrase secondary";
      b.dataset.phrase = id;
      b.textContent = t(`chat.phrase.${id}`);
      b.addEventListener("click", () => say("phrase", id));
      return b;
    }));
    emotes.replaceChildren(...c.emotes.map((id) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "chat-emote-pick secondary";
      b.dataset.emote = id;
      b.title = t(`chat.emote.${id}`);
      b.append(emoteElement(id, 32));
      b.addEventListener("click", () => { say("emote", id); toggleEmotes(false); });
      return b;
    }));
  }

  function fillMutes() {
    const box = q("#chat-mutes");
    const c = state.chat;
    const host = c && c.host !== null && c.host === opts.mySeat();
    const others = [0, 1, 2, 3].filter((s) => s !== opts.mySeat() && opts.seatKind(s) === "human");
    const rows = [...others, null].map((seat) => {
      const key = seat === null ? SPECTATORS : String(seat);
      const row = document.createElement("div");
      row.className = "chat-mute-row";
      row.dataset.muteSeat = key;
      const name = document.createElement("span");
      name.textContent = seat === null ? t("chat.spectators") : opts.seatName(seat);
      const me = checkbox(t("chat.mute_me"), state.mutedForMe.has(key), (on) => {
        if (on) state.mutedForMe.add(key); else state.mutedForMe.delete(key);
        saveMutes(opts.code, state.mutedForMe);
        renderList();
      });
      me.dataset.muteMe = key;
      row.append(name, me);
      if (host) {
        const all = seat === null ? !c.spectators : c.muted.includes(seat);
        const every = checkbox(t("chat.mute_all"), all,
          (on) => opts.send({ type: "chat_mute", seat, muted: on }));
        every.dataset.muteAll = key;
        if (seat === null && c.rail_locked) every.querySelector("input").disabled = true; // a ranked match
        row.append(every);
      }
      return row;
    });
    box.replaceChildren(...rows);
  }

  const nameOf = (m) => (m.seat === null ? spectatorName(m) : opts.seatName(m.seat) || m.name);
  const hidden = (m) => state.mutedForMe.has(m.seat === null ? SPECTATORS : String(m.seat));

  function renderList() {
    const list = q("#chat-list");
    list.replaceChildren(...state.log.filter((m) => !hidden(m)).map((m) => messageElement(m, nameOf(m))));
    scrollLater(list);
  }

  function bubble(m) {
    if (m.seat === null) return;
    const felt = document.getElementById("felt");
    if (!felt) return;
    const pos = opts.positionOf(m.seat);
    felt.querySelector(`.chat-bubble.at-${pos}`)?.remove();
    const b = document.createElement("div");
    b.className = `chat-bubble at-${pos}`;
    b.dataset.seat = String(m.seat);
    if (m.kind === "emote") b.append(emoteElement(m.body, 48));
    else b.textContent = messageText(m);
    felt.append(b);
    setTimeout(() => b.remove(), BUBBLE_MS);
  }

  function renderState() {
    const c = state.chat;
    const mine = opts.mySeat();
    let off = null;
    if (!c.enabled) off = "chat.off";
    else if (mine === null && !c.spectators) off = "chat.spectators_off";
    else if (mine !== null && c.muted.includes(mine)) off = "chat.muted_you";
    q("#chat-off").hidden = off === null;
    q("#chat-off").textContent = off ? t(off) : "";
    q("#chat-form").hidden = q("#chat-phrases").hidden = off !== null;
    if (off !== null) emotes.hidden = true;
    fillMutes();
  }

  return {
    panel,
    onState(msg) {
      const first = state.chat === null;
      state.chat = msg;
      if (first) fillChoices();
      renderState();
    },
    onLog(msg) {
      state.log = msg.messages.slice(-SHOWN_MAX);
      renderList();
    },
    onChat(m) {
      state.log.push(m);
      if (state.log.length > SHOWN_MAX) state.log.shift();
      if (hidden(m)) return;
      renderList();
      bubble(m);
    },
    onSeat() { if (state.chat) renderState(); },
    /** Who watches (the server's `watchers`: count, the first names, how many names more). */
    onWatchers(msg) {
      const line = q("#chat-watchers");
      line.hidden = !msg.count;
      line.dataset.count = String(msg.count);
      let text = t("chat.watchers", { n: msg.count });
      if (msg.names.length) text += ` — ${msg.names.join(", ")}`;
      if (msg.more) text += ` ${t("chat.watchers_more", { n: msg.more })}`;
      line.textContent = text; // names are player-typed: text, never markup
    },
    /** The chat's keys (T: write, J: emotes); true when the key was the chat's. */
    onKey(key) {
      if (!state.chat || q("#chat-form").hidden) return false;
      if (key === "T") { q("#chat-input").focus(); return true; }
      if (key === "J") { toggleEmotes(); return true; }
      return false;
    },
  };
}

function checkbox(label, checked, onChange) {
  const l = document.createElement("label");
  l.className = "chat-check";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.checked = checked;
  box.addEventListener("change", () => onChange(box.checked));
  l.append(box, " ", label);
  return l;
}

function loadMutes(code) {
  try { return new Set(JSON.parse(localStorage.getItem(MUTE_KEY + code) || "[]")); } catch (_err) { return new Set(); }
}

function saveMutes(code, set) {
  try { localStorage.setItem(MUTE_KEY + code, JSON.stringify([...set])); } catch (_err) { /* private mode */ }
}
