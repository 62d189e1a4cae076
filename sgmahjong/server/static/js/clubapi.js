// What the club pages share: requests (the session cookie says who asks), money and stakes
// as text, and list items built from text (a name a player typed is always textContent).
import { decode } from "./api.js";
import { errorText } from "./errors.js";
import { identityReady } from "./identity.js";

/** A JSON request to the club API; throws Error(reason) on an HTTP error (err.status set). */
export async function clubRequest(method, url, body = undefined) {
  await identityReady;
  const headers = { Accept: "application/json" };
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return decode(await fetch(url, init));
}

/** A failed request's text: the page's own words for an error code (a daily quota, members only),
 * else the server's message. */
export function failText(err) {
  return err.code ? errorText(err) : err.message;
}

/** Cents as money: $3.20, -$1.05. */
export function money(cents) {
  const c = Math.abs(Math.trunc(Number(cents) || 0));
  return `${cents < 0 ? "-" : ""}$${Math.floor(c / 100)}.${String(c % 100).padStart(2, "0")}`;
}

/** Signed money: +$3.20, -$1.05, $0.00. */
export function signedMoney(cents) {
  return cents > 0 ? `+${money(cents)}` : money(cents);
}

function short(cents) {
  return cents < 100 ? `${cents}c` : `$${cents % 100 ? (cents / 100).toFixed(2) : cents / 100}`;
}

/** A club's stakes as players say them: 20 -> "20c/40c", 50 -> "50c/$1". */
export function stakesLabel(stake) {
  return `${short(stake)}/${short(2 * stake)}`;
}

/** An element of `tag` with class `cls` and text `text` (never markup). */
/** A button of text that calls ``onClick``. */
export function actButton(label, cls, onClick) {
  const b = el("button", label, cls);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

export function el(tag, text = "", cls = "") {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
