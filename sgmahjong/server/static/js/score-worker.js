// The calculator's offline scorer (a module Web Worker; docs/delivery.md): Pyodide (CPython on
// WebAssembly) runs sgmahjong.calculator.score_answer, the very function that answers POST /api/score,
// from the zip of the scorer's Python modules the static build makes. No second copy of the rules.
//
// In:  {type: "start", pyodide: "/static/pyodide/<version>/", core: "/static/pyodide/core.<hash>.zip"}
//      {type: "score", id, body: "<the request's JSON text>"}
// Out: {type: "ready"} or {type: "failed", reason}; {type: "answer", id, status, answer: "<JSON text>"}
// This script's response allows 'wasm-unsafe-eval' (server/http/middleware.py): Pyodide compiles its
// WebAssembly; nothing is run from a string.
const SETUP = `
import json, sys
sys.path.insert(0, "/sgmj")
from sgmahjong.calculator import score_answer

def answer(text):
    status, body = score_answer(json.loads(text))
    return json.dumps([status, body], ensure_ascii=False)
`;

let scorer = null; // a promise of the Python function answer(text)

async function load(pyodideURL, coreURL) {
  const base = new URL(pyodideURL, self.location.href).href;
  const { loadPyodide } = await import(`${base}pyodide.mjs`);
  const core = fetch(new URL(coreURL, self.location.href)).then((res) => {
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.arrayBuffer();
  });
  const py = await loadPyodide({ indexURL: base, stdout: () => {}, stderr: () => {} });
  py.unpackArchive(await core, "zip", { extractDir: "/sgmj" });
  py.runPython(SETUP);
  return py.globals.get("answer");
}

self.onmessage = async (event) => {
  const msg = event.data || {};
  if (msg.type === "start") {
    scorer = scorer || load(msg.pyodide, msg.core);
    try {
      await scorer;
      self.postMessage({ type: "ready" });
    } catch (err) {
      scorer = null;
      self.postMessage({ type: "failed", reason: String(err && err.message ? err.message : err) });
    }
  } else if (msg.type === "score" && scorer) {
    try {
      const answer = await scorer;
      const [status, body] = JSON.parse(answer(msg.body));
      self.postMessage({ type: "answer", id: msg.id, status, answer: JSON.stringify(body) });
    } catch (err) { // a Python error score_answer does not answer itself: as the server's 500
      const body = { error: String(err && err.message ? err.message : err) };
      self.postMessage({ type: "answer", id: msg.id, status: 500, answer: JSON.stringify(body) });
    }
  }
};
