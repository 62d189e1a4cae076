// The WebSocket side of docs/protocol.md: one connection per tab, reconnecting on loss.
// Reconnects back off (0.3 s doubling to 5 s, with jitter so a crashed server's clients do not all
// come back at once) and restore the seat with the same token; an error "moved" (the table went to
// another server of a cluster) is not shown: the tab reconnects at once and lands on the new server.
//
//   const conn = new TableConnection(code, token, handlers)
//   conn.send({type: "action", action: "discard 5p", version: 12})
//
// handlers: {welcome, table, view, event, error, status(connected: bool)} — each optional.
// `delta` messages reach the handlers as their `event`s and the whole `view` (viewstate.js).

import { ViewState } from "./viewstate.js";

export const PROTOCOL_VERSION = 2;

const TOKEN_PREFIX = "sgmahjong:";

/** The secret seat token this browser holds for a table, or null. */
export function loadToken(code) {
  try {
    return localStorage.getItem(TOKEN_PREFIX + code);
  } catch (_err) {
    return null;
  }
}

/** Remember (or, with null, forget) the seat token for a table. */
export function saveToken(code, token) {
  try {
    if (token) localStorage.setItem(TOKEN_PREFIX + code, token);
    else localStorage.removeItem(TOKEN_PREFIX + code);
  } catch (_err) {
    /* private mode: the seat lasts as long as the tab */
  }
}

// errors after which the socket is closed for good (not a club member, no such table)
const FINAL = new Set(["club_only", "no_table"]);

export class TableConnection {
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.pingTimer = null;
    this.views = new ViewState();
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  open() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.views.reset();
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token || null }));
      this.call("status", true);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (_err) {
        return;
      }
      if (!msg || typeof msg.type !== "string" || this.ws !== ws) return;
      if (msg.type === "welcome") this.retry = 0;
      if (msg.type === "error" && FINAL.has(msg.code)) this.closed = true; // no use reconnecting
      if (msg.type === "error" && msg.code === "moved") {
        this.retry = 0;
        ws.close();
        return;
      }
      for (const m of this.views.expand(msg)) this.call(m.type, m);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.call("status", false);
      if (this.closed) return;
      const delay = Math.min(5000, 300 * 2 ** this.retry) * (0.5 + Math.random() / 2);
      this.retry += 1;
      setTimeout(() => {
        if (!this.closed && this.ws === ws) this.open();
      }, delay);
    });
  }

  call(name, arg) {
    const fn = this.handlers[name];
    if (fn) fn(arg);
  }

  /** Send one message (dropped, with false returned, while disconnected). */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Reconnect with another token (after joining a seat). */
  reconnect(token) {
    this.token = token;
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.open();
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
