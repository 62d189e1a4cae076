// Who this browser is: the server knows it by its session cookie (HttpOnly, made by the first request
// that needs one), so pages send nothing of their own. A browser of an older release kept a secret in
// localStorage: it is sent once to be adopted (POST /api/me/adopt), then forgotten.
const OLD_KEY = "sgmj-player";
const NAME_KEY = "sgmahjong:name"; // the name the table page fills in (shared with it)

async function adopt() {
  let old = null;
  try {
    old = JSON.parse(localStorage.getItem(OLD_KEY) || "null");
  } catch (_err) {
    old = null;
  }
  if (!old || typeof old.secret !== "string") return;
  try {
    const res = await fetch("/api/me/adopt", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ secret: old.secret }),
    });
    if (res.status >= 500 || res.status === 429) return; // try again on the next visit
    if (old.name && !localStorage.getItem(NAME_KEY)) localStorage.setItem(NAME_KEY, old.name);
    localStorage.removeItem(OLD_KEY);
  } catch (_err) {
    /* offline: try again on the next visit */
  }
}

/** Resolves once an old browser secret (if any) was adopted: await it before a page's first request. */
export const identityReady = adopt();

/** The display name used last on this browser ("" if none). */
export function rememberedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch (_err) {
    return "";
  }
}

/** Remember the display name used last (the table page fills it in). */
export function rememberName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch (_err) {
    /* private mode */
  }
}
