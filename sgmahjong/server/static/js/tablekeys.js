// The table's game keys (keys.js has the map): discard by number, claim by letter, the next hand, the
// chat's keys and the options sheet's key; and after a click on an option the keys go back to the game.
//
//   document.addEventListener("keydown", tableKeys({state, sendAction, readyNext, openSheet}))
//   optionsLetGo()
import { ACTION_KEYS, DISCARD_KEYS, SHEET_KEY } from "./keys.js";

// -- keyboard --------------------------------------------------------------------------------------

/** Where typing goes to the element itself: text fields (the name box), never a checkbox or a select. */
export function typing(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA") return true;
  return target.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "range"].includes(target.type);
}

/** A checkbox or select keeps Space, Enter and the arrows (a keyboard user works it); a game key
 * pressed on it plays instead (and does not pick an option by its first letter). */
export function optionControl(target) {
  return target && (target.tagName === "SELECT" || (target.tagName === "INPUT" && !typing(target)));
}

/** The keydown handler of the table page. ctx: {state, sendAction(action), readyNext(), openSheet()}. */
export function tableKeys(ctx) {
  const { state, sendAction, readyNext, openSheet } = ctx;
  return function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    if (typing(target)) return;
    if (optionControl(target) && ["Enter", " ", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Tab"].includes(ev.key)) return;
    const key = ev.key === " " ? "Space" : ev.key.length === 1 ? ev.key.toUpperCase() : ev.key;
    if (state.chat && state.chat.onKey(key)) { ev.preventDefault(); return; }
    if (key === SHEET_KEY && state.seat !== null && state.view) {
      ev.preventDefault();
      openSheet();
      return;
    }
    const v = state.view;
    if (!v) return;
    // a focused button or link answers Enter and Space itself (no second action from the game keys)
    if (target && (target.tagName === "BUTTON" || target.tagName === "A" || target.tagName === "SUMMARY")
        && (key === "Enter" || key === "Space")) return;
    // a focused tile of my hand: Enter discards it
    if (key === "Enter" && target && target.closest && target.closest("#hand .slot")) {
      const slot = target.closest("#hand .slot");
      ev.preventDefault();
      if (slot.classList.contains("can-discard")) sendAction(`discard ${slot.querySelector(".tile").dataset.tile}`);
      return;
    }
    if (v.result) {
      if (key === ACTION_KEYS.next && state.status === "between_hands") {
        ev.preventDefault();
        readyNext();
      }
      return;
    }
    const idx = DISCARD_KEYS.indexOf(key);
    if (optionControl(target) && (idx >= 0 || Object.values(ACTION_KEYS).includes(key))) ev.preventDefault();
    if (idx >= 0) {
      const slot = document.querySelector(`#hand .slot[data-index="${idx}"]`);
      if (slot && slot.classList.contains("can-discard")) {
        ev.preventDefault();
        sendAction(`discard ${slot.querySelector(".tile").dataset.tile}`);
      }
      return;
    }
    const btn = document.querySelector(`#actions button[data-key="${key}"]`);
    if (btn && !btn.disabled) {
      ev.preventDefault();
      btn.click();
    }
  };
}

/** After a mouse click or tap on an option (a checkbox, a select), the keyboard goes back to the game. */
export function optionsLetGo() {
  let pointer = false;
  document.addEventListener("pointerdown", () => { pointer = true; }, true);
  document.addEventListener("keydown", () => { pointer = false; }, true);
  document.addEventListener("change", (ev) => {
    if (pointer && optionControl(ev.target) && ev.target.closest("#play")) ev.target.blur();
  });
}
