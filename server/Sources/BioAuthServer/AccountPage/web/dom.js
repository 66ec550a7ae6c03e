// DOM helpers: an element by id, and a button that shows it is busy.

export const $ = (id) => document.getElementById(id);

export function setBusy(button, busy, busyText) {
  if (!button) return;
  if (busy) {
    if (!button.dataset.idleText) button.dataset.idleText = button.textContent;
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    if (busyText) {
      const label = button.querySelector('span') || button;
      label.textContent = busyText;
    }
  } else {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    if (button.dataset.idleText !== undefined) {
      const label = button.querySelector('span');
      if (label) label.textContent = button.dataset.idleText.trim();
      else button.textContent = button.dataset.idleText;
      delete button.dataset.idleText;
    }
  }
}
