// The server's errors in the page's language: the protocol's error `code`s (docs/protocol.md) map to
// texts of the strings files; the server's English `message` is shown only for a code we do not know.
import { has, t } from "./i18n.js";

/** Text for an error {code, message} (a WebSocket `error` or an HTTP error with its code). */
export function errorText(err) {
  const code = err && err.code;
  const detail = (err && err.message) || "";
  if (code && has(`error.${code}`)) return t(`error.${code}`, { detail });
  return detail ? t("error.http", { detail }) : String(code || "");
}
