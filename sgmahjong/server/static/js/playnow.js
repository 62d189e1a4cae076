// The lobby's "Play now": one click to a game against bots (POST /api/play) or to the public table
// waiting for players (POST /api/quick). The display name is remembered in this browser; the seat's
// token is kept as after joining, then the page goes to the table.
import { postJSON } from "./api.js";
import { saveToken } from "./protocol.js";
import { showTrouble } from "./trouble.js";
import { t } from "./i18n.js";
import { identityReady, rememberedName } from "./identity.js";

const NAME_KEY = "sgmahjong:name";
const $ = (id) => document.getElementById(id);

async function go(path) {
  const name = $("play-name").value.trim();
  $("play-error").textContent = "";
  if (!name) {
    $("play-name").focus();
    $("play-error").textContent = t("flow.play.name_first");
    return;
  }
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch (_err) {
    /* private mode */
  }
  for (const b of [$("play-bots"), $("quick-play")]) b.disabled = true;
  try {
    await identityReady;
    const body = { name };
    if (path === "/api/play" && $("play-pace")) body.options = { pace: $("play-pace").value };
    const res = await postJSON(path, body);
    saveToken(res.code, res.token);
    location.assign(res.url);
  } catch (err) {
    showTrouble($("play-error"), err, () => go(path));
    for (const b of [$("play-bots"), $("quick-play")]) b.disabled = false;
  }
}

/** A ready-made name for a first visit ("Guest 4821"), which the player may change. */
function guestName() {
  return t("pages.guest", { n: 1000 + Math.floor(Math.random() * 9000) });
}

function init() {
  if (!$("play-form")) return;
  $("play-name").value = rememberedName() || guestName();
  $("play-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    go("/api/play");
  });
  $("quick-play").addEventListener("click", () => go("/api/quick"));
}

init();
