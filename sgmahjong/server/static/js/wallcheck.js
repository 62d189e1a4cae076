// The wall check of docs/wall.md (scheme sha256-ctr-v1), in the browser with WebCrypto: the revealed
// secret's SHA-256 counter-mode stream shuffles the 148 tiles (unbiased Fisher-Yates), rolls the dice
// and breaks the wall; the result must be the revealed wall, which must hash to the published
// commitment (wallDigest in result.js).

const STACKS = [19, 18, 19, 18];

/** The 148 tiles in face order (four of each playing tile, then flowers and animals). */
function faceOrder() {
  const ring = [];
  for (const s of "mps") for (let r = 1; r <= 9; r += 1) for (let k = 0; k < 4; k += 1) ring.push(`${r}${s}`);
  for (const h of "ESWNCFP") for (let k = 0; k < 4; k += 1) ring.push(h);
  for (let i = 1; i <= 8; i += 1) ring.push(`${i}f`);
  for (let i = 1; i <= 4; i += 1) ring.push(`${i}a`);
  return ring;
}

/** A reader of 32-bit words from sha256(secret || counter) blocks. */
function wordStream(secret) {
  let words = [];
  let counter = 0n;
  return async () => {
    if (!words.length) {
      const buf = new Uint8Array(secret.length + 8);
      buf.set(secret);
      new DataView(buf.buffer).setBigUint64(secret.length, counter, false);
      counter += 1n;
      const view = new DataView(await crypto.subtle.digest("SHA-256", buf));
      words = [0, 4, 8, 12, 16, 20, 24, 28].map((k) => view.getUint32(k, false));
    }
    return words.shift();
  };
}

/** The wall (draw order) the revealed `secret` (hex) gives with `dealer`; null without WebCrypto. */
export async function wallFromSecret(secretHex, dealer) {
  if (!window.crypto || !crypto.subtle || !/^[0-9a-f]{64}$/i.test(secretHex || "")) return null;
  const secret = new Uint8Array(secretHex.match(/../g).map((h) => parseInt(h, 16)));
  const next = wordStream(secret);
  const below = async (n) => {
    const limit = Math.floor(2 ** 32 / n) * n;
    for (;;) {
      const w = await next();
      if (w < limit) return w % n;
    }
  };
  const ring = faceOrder();
  for (let i = ring.length - 1; i >= 1; i -= 1) {
    const j = await below(i + 1);
    [ring[i], ring[j]] = [ring[j], ring[i]];
  }
  let d = 0;
  for (let k = 0; k < 3; k += 1) d += 1 + await below(6);
  const walls = [0, 1, 2, 3].map((k) => STACKS[(dealer + k) % 4]);
  const w = (d - 1) % 4;
  const before = walls.slice(0, w).reduce((a, b) => a + b, 0);
  const at = (2 * (before + walls[w] - (d % walls[w]))) % ring.length;
  return ring.slice(at).concat(ring.slice(0, at));
}
