// The table's sounds (static/sounds/*.wav, made by tools/make_sounds.py) and the mute switch, whose
// choice is remembered in this browser.
import { t } from "./i18n.js";

const NAMES = ["draw", "discard", "claim", "win", "pay"];
const STORE_KEY = "sgmahjong:sound";
const cache = new Map();

export function soundOn() {
  try {
    return localStorage.getItem(STORE_KEY) !== "off";
  } catch (_err) {
    return true;
  }
}

function setSoundOn(on) {
  try {
    localStorage.setItem(STORE_KEY, on ? "on" : "off");
  } catch (_err) {
    /* private mode */
  }
}

/** Play one of NAMES (nothing when muted, or when the browser refuses to play before a click). */
export function play(name) {
  if (!soundOn() || !NAMES.includes(name)) return;
  let base = cache.get(name);
  if (!base) {
    base = new Audio(`/static/sounds/${name}.wav`);
    base.preload = "auto";
    cache.set(name, base);
  }
  const a = base.cloneNode();
  a.volume = 0.6;
  const p = a.play();
  if (p && p.catch) p.catch(() => {});
}

/** The mute switch: a 40 px button showing 🔊 / 🔇, aria-pressed when the sound is on. */
export function soundSwitch() {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "sound-switch secondary";
  const show = () => {
    const on = soundOn();
    b.textContent = on ? "🔊" : "🔇";
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.setAttribute("aria-label", t("sound.label"));
    b.title = on ? t("sound.on") : t("sound.off");
    b.dataset.sound = on ? "on" : "off";
  };
  b.addEventListener("click", () => {
    setSoundOn(!soundOn());
    show();
    if (soundOn()) play("draw");
  });
  show();
  return b;
}
