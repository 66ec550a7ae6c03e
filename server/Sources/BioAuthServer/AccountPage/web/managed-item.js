// A row of a list that can be renamed and removed (passkeys and device keys), built from the
// <template> in index.html.

import { $, setBusy } from './dom.js';
import { ApiError, Cancelled } from './errors.js';
import { setIcon } from './items.js';
import { clearMessage, showError, showText } from './messages.js';
import { withReauth } from './reauth.js';

// `item`: { kind, id, label, icon, badges, meta, noun, section, errorEl, statusEl, rename, remove,
// refresh }. `kind` prefixes every data-testid ("passkey-rename", …); `rename(value)` and `remove()`
// call the server (through "Confirm it's you" when it asks); `refresh()` reloads the list.
export function managedItem(item) {
  const li = $('managed-item-template').content.firstElementChild.cloneNode(true);
  fillRow(li, item);
  nameControls(li, item);
  const row = controls(li, item);
  wireRename(row, item);
  wireRemove(row, item);
  return li;
}

// The row's label, icon, badges and metadata.
function fillRow(li, { kind, id, label, icon, badges, meta }) {
  li.dataset.testid = `${kind}-item`;
  li.dataset.id = id;
  setIcon(li.querySelector('.item-icon'), icon);
  const labelEl = li.querySelector('.item-label');
  labelEl.textContent = label;
  labelEl.dataset.testid = `${kind}-label`;
  const badgesEl = li.querySelector('.item-badges');
  for (const b of badges) badgesEl.append(b);
  li.querySelector('.item-meta').append(meta);
  li.querySelector('.item-meta').dataset.testid = `${kind}-meta`;
}

// The controls' names, for assistive technology and for the tests.
function nameControls(li, { kind, id, label, noun }) {
  const input = li.querySelector('.item-rename-input');
  const inputLabel = li.querySelector('.inline-label');
  const inputId = `${kind}-rename-${id}`;
  input.id = inputId;
  inputLabel.htmlFor = inputId;
  inputLabel.textContent = `New name for ${label}`;
  li.querySelector('.item-rename').setAttribute('aria-label', `Rename ${label}`);
  li.querySelector('.item-remove').setAttribute('aria-label', `Remove ${label}`);
  li.querySelector('.confirm-text').textContent = `Remove ${noun} “${label}”?`;
  li.querySelector('.item-confirm').setAttribute('aria-label', `Confirm removing ${label}`);
  const testids = {
    '.item-rename': 'rename', '.item-remove': 'remove', '.item-rename-input': 'label-input', '.item-save': 'save',
    '.item-cancel': 'rename-cancel', '.item-confirm-yes': 'remove-yes', '.item-confirm-no': 'remove-no', '.item-error': 'item-error',
  };
  for (const [selector, name] of Object.entries(testids)) li.querySelector(selector).dataset.testid = `${kind}-${name}`;
}

// The row's controls, and what puts the row back at rest.
function controls(li, { errorEl, statusEl }) {
  const row = {
    li,
    renameButton: li.querySelector('.item-rename'),
    removeButton: li.querySelector('.item-remove'),
    form: li.querySelector('.item-rename-form'),
    input: li.querySelector('.item-rename-input'),
    confirm: li.querySelector('.item-confirm'),
    itemError: li.querySelector('.item-error'),
    actions: li.querySelector('.item-actions'),
  };
  row.clearSection = () => { clearMessage(errorEl); clearMessage(statusEl); };
  row.closeAll = () => {
    row.form.hidden = true;
    row.confirm.hidden = true;
    row.actions.hidden = false;
    clearMessage(row.itemError);
  };
  return row;
}

// Rename: an inline form in place of the buttons.
function wireRename(row, { label, section, errorEl, rename, refresh }) {
  const { li, renameButton, form, input, itemError, closeAll } = row;
  renameButton.addEventListener('click', () => {
    closeAll();
    row.clearSection();
    row.actions.hidden = true;
    form.hidden = false;
    input.value = label;
    input.focus();
    input.select();
  });
  li.querySelector('.item-cancel').addEventListener('click', () => { closeAll(); renameButton.focus(); });
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') { closeAll(); renameButton.focus(); }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearMessage(itemError);
    const value = input.value.trim();
    if (!value) { showText(itemError, 'Enter a name.'); input.focus(); return; }
    if (value === label) { closeAll(); return; }
    const save = li.querySelector('.item-save');
    setBusy(save, true, 'Saving…');
    try {
      await withReauth(section, () => rename(value));
    } catch (e) {
      setBusy(save, false);
      if (e instanceof Cancelled) return;
      if (e instanceof ApiError && e.code === 'not_found') { showError(errorEl, e); refresh(); return; }
      showError(itemError, e, { invalid_request: 'That name is not accepted: use 1 to 64 characters.' });
      return;
    }
    setBusy(save, false);
  });
}

// Remove: a confirmation in place of the buttons.
function wireRemove(row, { section, errorEl, remove, refresh }) {
  const { li, removeButton, confirm, itemError, closeAll } = row;
  removeButton.addEventListener('click', () => {
    closeAll();
    row.clearSection();
    row.actions.hidden = true;
    confirm.hidden = false;
    li.querySelector('.item-confirm-no').focus();
  });
  li.querySelector('.item-confirm-no').addEventListener('click', () => { closeAll(); removeButton.focus(); });
  li.querySelector('.item-confirm-yes').addEventListener('click', async (event) => {
    const yes = event.currentTarget;
    setBusy(yes, true, 'Removing…');
    try {
      await withReauth(section, () => remove());
    } catch (e) {
      setBusy(yes, false);
      if (e instanceof Cancelled) return;
      if (e instanceof ApiError && e.code === 'not_found') { showError(errorEl, e); refresh(); return; }
      showError(itemError, e);
      return;
    }
    setBusy(yes, false);
  });
}
