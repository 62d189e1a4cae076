// The table's play options sheet: a dialog opened from the top bar's Options button or the , key
// (keys.js), holding the player's own options (settings.js: auto-pass, auto-win, auto-discard, hand
// order) and the tile tracker's switch. Modal: the focus stays inside while it is open, Escape or the
// close button shuts it, and the focus goes back to where it was.
//
//   const sheet = initSheet();   sheet.open()   sheet.setAvailable(on)
const $ = (id) => document.getElementById(id);

export function initSheet() {
  const dialog = $("options-sheet");
  const btn = $("sheet-btn");
  let opener = null;

  function open() {
    if (dialog.open) {
      dialog.close();
      return;
    }
    if (btn.hidden) return;
    opener = document.activeElement;
    btn.setAttribute("aria-expanded", "true");
    dialog.showModal();
    const first = dialog.querySelector("#sheet-body input, #sheet-body select");
    if (first) first.focus();
  }

  dialog.addEventListener("close", () => {
    btn.setAttribute("aria-expanded", "false");
    const back = opener && opener.isConnected && opener !== document.body ? opener : btn;
    opener = null;
    if (!back.hidden) back.focus({ preventScroll: true });
  });
  // a click on the backdrop (outside the sheet's box) closes it
  dialog.addEventListener("click", (ev) => { if (ev.target === dialog) dialog.close(); });
  btn.addEventListener("click", open);
  btn.setAttribute("aria-expanded", "false");
  $("sheet-close").addEventListener("click", () => dialog.close());

  return {
    open,
    /** The sheet is for a seated player in play: the button shows, else the sheet closes. */
    setAvailable(on) {
      btn.hidden = !on;
      if (!on && dialog.open) dialog.close();
    },
  };
}
