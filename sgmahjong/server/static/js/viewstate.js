// Whole views from `view` and `delta` messages (docs/protocol.md, protocol 2).
//
//   const views = new ViewState();
//   for (const m of views.expand(msg)) handle(m);
//
// A `delta` holds the view's changed top-level keys (`seats`: only the changed seats, by index) and
// the redacted events that led to it. expand() turns a `view` or `delta` into its `event` messages,
// in order, then one whole `view` message ({type, status, view, timer}), so the page only ever sees
// whole views. Other messages pass through unchanged. Python twin: sgmahjong/server/deltas.py.

export function mergeDelta(view, delta) {
  const out = { ...view };
  for (const [key, value] of Object.entries(delta)) {
    if (key === "seats") {
      const seats = [...out.seats];
      for (const [index, entry] of Object.entries(value)) seats[Number(index)] = entry;
      out.seats = seats;
    } else {
      out[key] = value;
    }
  }
  return out;
}

export class ViewState {
  constructor() {
    this.view = null;
  }

  /** Forget the view (a new connection: the server starts it with a whole view). */
  reset() {
    this.view = null;
  }

  expand(msg) {
    if (msg.type !== "view" && msg.type !== "delta") return [msg];
    let view;
    if (msg.type === "delta") {
      if (!this.view) return []; // nothing to build on; the server sends a whole view first
      view = mergeDelta(this.view, msg.view || {});
    } else {
      view = msg.view;
    }
    this.view = view;
    const out = (msg.events || []).map((event) => ({ type: "event", event, version: view.version }));
    out.push({ type: "view", status: msg.status, view, timer: msg.timer });
    return out;
  }
}
