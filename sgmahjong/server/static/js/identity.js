// The player's browser-held identity: a random secret kept in this browser's localStorage (the
// server stores only its hash, like a seat token) and a display name. No passwords: whoever holds
// the browser is the player. Sent as the X-Player header to /api/me, and with a join.
const KEY = "sgmj-player";
const NAME_KEY = "sgmahjong:name"; // the name the table page fills in (shared with it)

function randomSecret() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** {secret, name} of this browser (created on first use). */
export function playerIdentity() {
  const me = storedIdentity();
  try {
    me.name = localStorage.getItem(NAME_KEY) || me.name || "";
  } catch (_err) {
    /* private mode */
  }
  return me;
}

function storedIdentity() {
  let me = null;
  try {
    me = JSON.parse(localStorage.getItem(KEY) || "null");
  } catch (_err) {
    me = null;
  }
  if (!me || typeof me.secret !== "string" || me.secret.length < 32) {
    me = { secret: randomSecret(), name: "" };
    localStorage.setItem(KEY, JSON.stringify(me));
  }
  return me;
}

/** Remember the display name used last (the server learns it with the next join or rename). */
export function rememberName(name) {
  const me = storedIdentity();
  me.name = name;
  localStorage.setItem(KEY, JSON.stringify(me));
  localStorage.setItem(NAME_KEY, name);
}

/** Forget this browser's identity (after its history was deleted). */
export function forgetIdentity() {
  localStorage.removeItem(KEY);
}

/** Request headers that identify the player. */
export function playerHeaders() {
  return { "X-Player": storedIdentity().secret };
}
