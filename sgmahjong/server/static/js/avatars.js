// Avatars (docs/talk.md): a player's picture at the seat and on /me, drawn from the tile set (the four
// animals and the eight flowers, round-cropped faces of the tiles); bots have their own, a dragon tile
// by seat. The choice is kept with the browser identity (POST /api/me/avatar).
import { t } from "./i18n.js";
import { tileSVG } from "./tiles.js";
import { getJSON } from "./api.js";
import { identityReady } from "./identity.js";

/** avatar id -> the tile it shows (ids as server/http/avatars.py AVATARS). */
export const AVATAR_TILES = {
  cat: "1a", rat: "2a", rooster: "3a", centipede: "4a",
  plum: "1f", orchid: "2f", chrysanthemum: "3f", bamboo: "4f",
  spring: "5f", summer: "6f", autumn: "7f", winter: "8f",
};
const BOT_TILES = ["C", "F", "P", "C"]; // the dragons (red, green, white) by seat

/** A round avatar: `id` a player's avatar, or `bot:SEAT` for a bot at that seat. */
export function avatarElement(id, size = null) {
  const tile = id && id.startsWith("bot:") ? BOT_TILES[Number(id.slice(4)) % 4] : AVATAR_TILES[id];
  const el = document.createElement("span");
  el.className = "avatar" + (id && id.startsWith("bot:") ? " avatar-bot" : "");
  if (size) el.style.setProperty("--avatar", `${size}px`);
  el.dataset.avatar = id || "";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", id && !id.startsWith("bot:") ? t(`avatar.${id}`) : t("avatar.bot"));
  // the middle of the tile's face, a square (the tile is 60 x 80)
  if (tile) el.innerHTML = tileSVG(tile).replace(/viewBox="[^"]*"/, 'viewBox="2 12 56 56"');
  return el;
}

/** The avatars of a table's human seats, fetched again when its players change. */
export function tableAvatars(code, onChange) {
  let key = null;
  let seats = {};
  return {
    /** After a `table` summary: fetch when the humans seated changed. */
    update(summary) {
      const now = summary.seats.map((s) => (s.kind === "human" ? s.name : s.kind)).join("|");
      if (now === key) return;
      key = now;
      getJSON(`/api/tables/${encodeURIComponent(code)}/avatars`).then((body) => {
        seats = body.seats || {};
        onChange();
      }).catch(() => {});
    },
    /** The avatar element for a seat (null: a human who chose none). */
    of(seat, kind) {
      if (kind === "bot") return avatarElement(`bot:${seat}`);
      const id = seats[String(seat)];
      return id ? avatarElement(id) : null;
    },
  };
}

/** The /me picker: the choices as buttons, the current one pressed; saves on a click. */
export async function avatarPicker(box, status) {
  let body;
  try {
    await identityReady;
    const res = await fetch("/api/me/avatar", { headers: { Accept: "application/json" } });
    if (!res.ok) return;
    body = await res.json();
  } catch (_err) {
    return;
  }
  const render = (current) => box.replaceChildren(...body.choices.map((id) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "avatar-pick secondary";
    b.dataset.avatar = id;
    b.title = t(`avatar.${id}`);
    b.setAttribute("aria-pressed", String(id === current));
    b.append(avatarElement(id, 44));
    b.addEventListener("click", async () => {
      const res = await fetch("/api/me/avatar", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ avatar: id }),
      });
      const answer = await res.json().catch(() => ({}));
      status.textContent = res.ok ? t("me.saved") : (answer.error || String(res.status));
      if (res.ok) render(id);
    });
    return b;
  }));
  render(body.avatar);
}
