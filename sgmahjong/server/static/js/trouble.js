// When the network lets a page down: a failed fetch, or a table's dropped socket, told in the page's
// language with what to do about it (try again), never the browser's "Failed to fetch".
//
//   troubleText(err)                  -> the words for an error thrown by getJSON/postJSON (api.js)
//   showTrouble(el, err, retry)       -> those words in `el`, with a "Try again" button calling retry()
//   connectionNotice(host, tryNow)    -> a notice in `host` (the table's felt): notice.set(connected)
import { t } from "./i18n.js";
import { errorText } from "./errors.js";

/** Whether `err` means the server could not be reached at all (offline, or no answer). */
export function unreachable(err) {
  return !navigator.onLine || err instanceof TypeError || Boolean(err && err.code === "offline");
}

/** An error of a fetch in the page's language: offline, no answer, the server's coded error, or a
 * plain "it did not work". */
export function troubleText(err) {
  if (unreachable(err)) return t(navigator.onLine ? "net.unreachable" : "net.offline");
  if (err && err.code) return errorText(err);
  if (err && err.status >= 500) return t("net.server_down");
  if (err && err.status && err.message) return errorText({ message: err.message });
  return t("net.failed");
}

/** Fill `el` with the words for `err` and, when `retry` is given, a "Try again" button. */
export function showTrouble(el, err, retry = null) {
  const text = document.createElement("span");
  text.className = "trouble-text";
  text.textContent = troubleText(err);
  el.replaceChildren(text);
  el.classList.add("net-trouble");
  el.hidden = false;
  if (retry && (unreachable(err) || !(err && err.code))) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "secondary trouble-retry";
    b.dataset.action = "retry";
    b.textContent = t("net.retry");
    b.addEventListener("click", () => {
      el.replaceChildren();
      el.classList.remove("net-trouble");
      retry();
    });
    el.append(" ", b);
  }
}

/** A notice over the table while its connection is down: what happened, that the seat is kept and the
 * table comes back by itself, and a button to try at once. */
export function connectionNotice(host, tryNow) {
  const box = document.createElement("div");
  box.className = "net-notice";
  box.id = "net-notice";
  box.setAttribute("role", "status");
  box.hidden = true;
  const title = document.createElement("strong");
  const what = document.createElement("p");
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.action = "retry";
  b.addEventListener("click", tryNow);
  box.append(title, what, b);
  host.append(box);
  return {
    set(connected) {
      box.hidden = connected;
      if (connected) return;
      title.textContent = t(navigator.onLine ? "net.table.title" : "net.table.offline_title");
      what.textContent = t("net.table.what");
      b.textContent = t("net.table.retry");
    },
  };
}
