// The server's errors in the page's language: the protocol's error `code`s (docs/protocol.md) and the
// rules core's reason codes (a bad hand in the calculator: `notation.*`, `hand.*`, `meld.*`, `score.*`,
// with their `params`) map to texts of the strings files; the server's English `message` is shown only
// for a code we do not know.
import { has, t } from "./i18n.js";

/** Text for an error {code, message, params} (a WebSocket `error` or an HTTP error with its code). */
export function errorText(err) {
  const code = err && err.code;
  const detail = (err && err.message) || "";
  const params = (err && err.params) || {};
  if (code && has(`error.${code}`)) {
    const text = t(`error.${code}`, { ...params, detail });
    return params.column ? t("pages.error_at_column", { text, column: params.column }) : text;
  }
  return detail ? t("error.http", { detail }) : String(code || "");
}
