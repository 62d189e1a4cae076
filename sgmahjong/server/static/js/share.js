// Sharing a link or a message in one tap: the system's share sheet (the Web Share API) where the browser
// has one; where it has none, or the sheet fails for another reason than the reader closing it
// (AbortError), WhatsApp and Telegram links and Copy. Used for invite links, table links, replays and the
// club's settle-up message; the words shared are the page's language. Texts go in as text only.
import { t } from "./i18n.js";

/** The message as one piece of text: the words, then the link on its own line. */
export function messageOf({ text, url }) {
  return url ? `${text}\n${url}` : text;
}

/** A WhatsApp link sharing `text` and `url` (https://wa.me/?text=...). */
export function whatsappUrl({ text, url }) {
  return `https://wa.me/?text=${encodeURIComponent(url ? `${text} ${url}` : text)}`;
}

/** A Telegram link sharing `url` with `text` (https://t.me/share/url?url=...&text=...). */
export function telegramUrl({ text, url }) {
  return `https://t.me/share/url?url=${encodeURIComponent(url || "")}&text=${encodeURIComponent(text)}`;
}

function node(tag, text, cls) {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** Put a Share button in `host` for what `what()` returns when pressed: {title, text, url} (`url`
 * absolute, or "" for a message without a link). `label` is the button's strings key. */
export function shareButton(host, what, label = "share.share") {
  const button = node("button", t(label), "secondary share-btn");
  button.type = "button";
  const panel = node("div", "", "share-fallback");
  panel.hidden = true;
  panel.setAttribute("role", "group");
  panel.setAttribute("aria-label", t("share.with"));
  const wa = node("a", t("share.whatsapp"), "button secondary share-whatsapp");
  const tg = node("a", t("share.telegram"), "button secondary share-telegram");
  for (const a of [wa, tg]) {
    a.target = "_blank";
    a.rel = "noopener noreferrer";
  }
  // a real address from the start (a link without one is not a link); the message goes in when pressed
  wa.href = "https://wa.me/";
  tg.href = "https://t.me/share/url";
  const copy = node("button", t("share.copy"), "secondary share-copy");
  copy.type = "button";
  const said = node("span", "", "muted share-status");
  said.setAttribute("role", "status");
  panel.append(node("span", t("share.with"), "muted share-with"), wa, tg, copy, said);
  let item = null;

  function fallback() {
    wa.href = whatsappUrl(item);
    tg.href = telegramUrl(item);
    said.textContent = "";
    panel.hidden = false;
  }

  button.addEventListener("click", async () => {
    item = what();
    if (typeof navigator.share === "function") {
      const data = { title: item.title, text: item.text };
      if (item.url) data.url = item.url;
      try {
        await navigator.share(data);
        return;
      } catch (err) {
        if (err && err.name === "AbortError") return; // the reader closed the sheet
      }
    }
    fallback();
  });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(messageOf(item));
      said.textContent = t("share.copied");
    } catch (_err) {
      said.textContent = t("share.copy_failed");
    }
  });
  host.replaceChildren(button, panel);
  return button;
}
