// The account card of /me (docs/accounts.md): claim an account for this browser's history with a
// passkey (navigator.credentials), sign in with a passkey or a device link code, list and remove
// devices and passkeys, show a link code for a new device, sign out (here or everywhere). Where the
// server does not offer passkeys (`passkeys_off`: a host other than localhost without a relying party
// set), the passkey buttons are hidden and the link code remains.
// Data: /api/account/*; the session is an HttpOnly cookie the page never sees.
import { esc } from "./api.js";
import { errorText } from "./errors.js";
import { identityReady } from "./identity.js";
import { has, t } from "./i18n.js";
import { showRating } from "./rating.js";

const $ = (id) => document.getElementById(id);
let changed = () => {};
let codeTimer = null;
let passkeysOff = false;

async function send(method, url, body = {}) {
  await identityReady;
  const res = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  let data = null;
  try {
    data = await res.json();
  } catch (_err) {
    data = null;
  }
  if (!res.ok) {
    const code = data && data.code;
    const err = new Error(code && has(`account.error.${code}`) ? t(`account.error.${code}`)
      : code && has(`error.${code}`) ? errorText({ code, message: data.error, params: data.params })
        : (data && data.error) || `HTTP ${res.status}`);
    err.status = res.status;
    err.code = data && data.code;
    throw err;
  }
  return data;
}

// base64url <-> ArrayBuffer, for browsers without PublicKeyCredential.parse*OptionsFromJSON / toJSON
function toBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
}

function fromBytes(buffer) {
  let s = "";
  new Uint8Array(buffer).forEach((b) => { s += String.fromCharCode(b); });
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creationOptions(o) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(o);
  return { ...o, challenge: toBytes(o.challenge), user: { ...o.user, id: toBytes(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })) };
}

function requestOptions(o) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(o);
  return { ...o, challenge: toBytes(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })) };
}

function credentialJSON(cred) {
  if (typeof cred.toJSON === "function") return cred.toJSON();
  const r = cred.response;
  const response = { clientDataJSON: fromBytes(r.clientDataJSON) };
  if (r.attestationObject) response.attestationObject = fromBytes(r.attestationObject);
  if (r.authenticatorData) response.authenticatorData = fromBytes(r.authenticatorData);
  if (r.signature) response.signature = fromBytes(r.signature);
  if (r.userHandle) response.userHandle = fromBytes(r.userHandle);
  return { id: cred.id, rawId: fromBytes(cred.rawId), type: cred.type, response, clientExtensionResults: {} };
}

function say(text) {
  $("account-status").textContent = text;
}

async function signedIn(answer) {
  await refresh();
  changed();
  showRating().catch(() => {});
}

/** A new passkey: a new account named `name`, or (signed in, no name) another passkey of the account. */
async function createPasskey(name) {
  const begin = await send("POST", "/api/account/passkeys/begin", name ? { name } : {});
  const cred = await navigator.credentials.create({ publicKey: creationOptions(begin.options) });
  const answer = await send("POST", "/api/account/passkeys/finish", { flow: begin.flow, credential: credentialJSON(cred) });
  if (name) await signedIn(answer);
  else await refresh();
}

async function passkeySignIn() {
  const begin = await send("POST", "/api/account/signin/begin", {});
  const cred = await navigator.credentials.get({ publicKey: requestOptions(begin.options) });
  await signedIn(await send("POST", "/api/account/signin/finish", { flow: begin.flow, credential: credentialJSON(cred) }));
}

function attempt(fn) {
  return async (e) => {
    if (e) e.preventDefault();
    say("");
    try {
      await fn();
    } catch (err) {
      if (err.code === "passkeys_off" && !passkeysOff) {
        passkeysOff = true; // the card now says so where the passkey buttons were
        await refresh().catch(() => {});
        return;
      }
      say(err.name === "NotAllowedError" ? t("account.cancelled") : err.message);
    }
  };
}

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString() : "—";
}

function renderSignedOut() {
  const withPasskeys = passkeysOff
    ? `<p class="muted" id="passkeys-off">${esc(t("account.error.passkeys_off"))}</p>`
    : `<form id="claim-form" class="account-row"><label><span>${esc(t("account.name"))}</span> ` +
      `<input type="text" id="claim-name" maxlength="40" required autocomplete="username webauthn"></label>` +
      `<button type="submit" id="claim-btn">${esc(t("account.claim"))}</button></form>` +
      `<p class="account-row"><button type="button" class="secondary" id="signin-btn">${esc(t("account.signin"))}</button></p>`;
  $("account").innerHTML =
    `<p class="muted">${esc(t("account.intro"))}</p>` + withPasskeys +
    `<form id="link-form" class="account-row"><label><span>${esc(t("account.code"))}</span> ` +
    `<input type="text" id="link-code" maxlength="20" required autocomplete="one-time-code" ` +
    `placeholder="XXXXX-XXXXX" spellcheck="false"></label>` +
    `<button type="submit" class="secondary" id="link-btn">${esc(t("account.link"))}</button></form>`;
  if (!passkeysOff) {
    $("claim-name").value = $("me-name") ? $("me-name").value : "";
    $("claim-form").addEventListener("submit", attempt(() => createPasskey($("claim-name").value.trim())));
    $("signin-btn").addEventListener("click", attempt(passkeySignIn));
  }
  $("link-form").addEventListener("submit", attempt(async () => {
    await signedIn(await send("POST", "/api/account/link", { code: $("link-code").value }));
  }));
}

function renderSignedIn(a) {
  const keys = a.passkeys.map((p) =>
    `<li data-passkey="${p.id}"><span>${esc(p.label)} · ${esc(t("account.added", { when: when(p.created) }))}</span>` +
    `<button type="button" class="secondary small" data-remove-passkey="${p.id}">${esc(t("account.remove"))}</button></li>`);
  const devices = a.devices.map((d) =>
    `<li data-device="${esc(d.ref)}"><span>${esc(d.label)}${d.current ? ` <b>${esc(t("account.this_device"))}</b>` : ""}` +
    ` · ${esc(t("account.seen", { when: when(d.last_seen) }))}</span>` +
    `<button type="button" class="secondary small" data-remove-device="${esc(d.ref)}">${esc(t("account.remove"))}</button></li>`);
  $("account").innerHTML =
    `<p id="account-name">${esc(t("account.signed_in", { name: a.name }))}</p>` +
    `<h3>${esc(t("account.passkeys"))}</h3><ul class="account-list" id="passkeys">${keys.join("")}</ul>` +
    (passkeysOff ? ""
      : `<p class="account-row"><button type="button" class="secondary" id="add-passkey">${esc(t("account.add_passkey"))}</button></p>`) +
    `<h3>${esc(t("account.devices"))}</h3><ul class="account-list" id="devices">${devices.join("")}</ul>` +
    `<p class="account-row"><button type="button" class="secondary" id="code-btn">${esc(t("account.show_code"))}</button>` +
    ` <output id="link-shown" class="link-code"></output></p>` +
    `<p class="account-row"><button type="button" class="secondary" id="signout-btn">${esc(t("account.signout"))}</button>` +
    ` <button type="button" class="secondary" id="signout-all-btn">${esc(t("account.signout_all"))}</button></p>`;
  if (!passkeysOff) $("add-passkey").addEventListener("click", attempt(() => createPasskey(null)));
  $("code-btn").addEventListener("click", attempt(showCode));
  $("signout-btn").addEventListener("click", attempt(() => signOut("/api/account/signout")));
  $("signout-all-btn").addEventListener("click", attempt(() => signOut("/api/account/signout-all")));
  $("account").querySelectorAll("[data-remove-passkey]").forEach((b) => b.addEventListener("click", attempt(async () => {
    if (!window.confirm(t("account.confirm_remove"))) return;
    await send("DELETE", `/api/account/passkeys/${b.dataset.removePasskey}`);
    await refresh();
  })));
  $("account").querySelectorAll("[data-remove-device]").forEach((b) => b.addEventListener("click", attempt(async () => {
    if (!window.confirm(t("account.confirm_remove"))) return;
    const answer = await send("DELETE", `/api/account/devices/${encodeURIComponent(b.dataset.removeDevice)}`);
    if (answer.signed_in === false) await signOutHere();
    else await refresh();
  })));
}

async function showCode() {
  const issued = await send("POST", "/api/account/link-codes", {});
  const until = Date.now() + issued.expires_in * 1000;
  const out = $("link-shown");
  out.dataset.code = issued.code;
  clearInterval(codeTimer);
  const tick = () => {
    const left = Math.max(0, Math.round((until - Date.now()) / 1000));
    out.textContent = left ? t("account.code_shown", { code: issued.code, m: Math.floor(left / 60),
      s: String(left % 60).padStart(2, "0") }) : t("account.code_expired");
    if (!left) clearInterval(codeTimer);
  };
  tick();
  codeTimer = setInterval(tick, 1000);
}

async function signOutHere() {
  // the server made this device a new guest: the account's hands, seats and clubs stay the account's
  await refresh();
  changed();
  showRating().catch(() => {});
}

async function signOut(url) {
  await send("POST", url, {});
  await signOutHere();
}

/** Draw the card from GET /api/account. */
export async function refresh() {
  clearInterval(codeTimer);
  const res = await fetch("/api/account", { headers: { Accept: "application/json" } });
  const a = await res.json();
  passkeysOff = passkeysOff || Boolean(a.passkeys_off);
  document.body.classList.toggle("signed-in", Boolean(a.signed_in));
  if (a.signed_in) renderSignedIn(a);
  else renderSignedOut();
}

/** Set up the card; `onChange` runs after signing in or out (the history is another one then). */
export function initAccount(onChange) {
  changed = onChange;
  refresh().catch((err) => say(err.message));
}
