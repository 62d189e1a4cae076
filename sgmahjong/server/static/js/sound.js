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

const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const ICON_ON = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">${SPEAKER}` +
  '<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none" ' +
  'stroke-linecap="round"/></svg>';
const ICON_OFF = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">${SPEAKER}` +
  '<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

/** The mute switch: a 40 px button with a speaker icon, aria-pressed when the sound is on. */
export function soundSwitch() {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "sound-switch secondary";
  const show = () => {
    const on = soundOn();
    b.innerHTML = on ? ICON_ON : ICON_OFF;
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
