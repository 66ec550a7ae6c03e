// Confirmations: what the bank asked the account to approve (a payment, an action). Pending ones
// show the server's text, derived from the stored details alone, and are approved with a passkey
// (a ceremony whose challenge is the confirmation's message) or declined; decided ones show how
// they ended. The page never builds the text itself.

import { loadActivity } from './activity.js';
import { api } from './api.js';
import { $, setBusy } from './dom.js';
import { ApiError } from './errors.js';
import { metaLine, timeElement } from './format.js';
import { fetchSection, guarded } from './guarded.js';
import { badge, emptyItem, setIcon } from './items.js';
import { clearLoadError, clearMessage, showError, showText } from './messages.js';
import { rememberRpId } from './signals.js';
import { state } from './state.js';
import { credentialToJSON, hasWebAuthn, parseRequestOptions } from './webauthn.js';
import { CONFIRMATION_STATUS_WORDS, METHOD_WORDS } from './words.js';

export const loadConfirmations = guarded(async (current) => {
  const errorEl = $('confirmations-error');
  const data = await fetchSection(current, errorEl, '/v1/confirmations');
  if (!data) return;
  const confirmations = data.confirmations || [];
  const list = $('confirmation-list');
  list.replaceChildren(...confirmations.map(confirmationItem));
  if (confirmations.length === 0) list.append(emptyItem('Nothing to confirm.', 'confirmation-empty'));
  clearLoadError(errorEl);
});

// The text's title and lines as the server derived them, as plain text.
function textBlock(text) {
  const fragment = document.createDocumentFragment();
  const title = document.createElement('span');
  title.className = 'item-label';
  title.dataset.testid = 'confirmation-title';
  title.textContent = (text && text.title) || '';
  fragment.append(title);
  const lines = document.createElement('span');
  lines.className = 'confirmation-lines';
  lines.dataset.testid = 'confirmation-lines';
  for (const line of (text && text.lines) || []) {
    const el = document.createElement('span');
    el.className = 'confirmation-line';
    el.textContent = line;
    lines.append(el);
  }
  return { title: fragment, lines };
}

// One confirmation's row: pending with its two buttons, or how it ended.
function confirmationItem(c) {
  const li = document.createElement('li');
  li.className = `item confirmation confirmation-${c.status}`;
  li.dataset.testid = 'confirmation-item';
  li.dataset.id = c.id;
  li.dataset.status = c.status;
  const row = document.createElement('div');
  row.className = 'item-row';
  const icon = document.createElement('div');
  icon.className = 'item-icon';
  icon.setAttribute('aria-hidden', 'true');
  setIcon(icon, 'confirmation');
  const main = document.createElement('div');
  main.className = 'item-main';
  const { title, lines } = textBlock(c.text);
  const titleEl = document.createElement('p');
  titleEl.className = 'item-title';
  titleEl.append(title);
  if (c.status !== 'pending') {
    const status = badge(CONFIRMATION_STATUS_WORDS[c.status] || c.status, c.status === 'approved' ? 'synced' : c.status === 'blocked' ? 'failure' : 'muted');
    status.dataset.testid = 'confirmation-status';
    titleEl.append(status);
  }
  const meta = document.createElement('p');
  meta.className = 'item-meta';
  meta.dataset.testid = 'confirmation-meta';
  meta.append(metaFor(c));
  main.append(titleEl, lines, meta);
  row.append(icon, main);
  li.append(row);
  if (c.status === 'pending') addActions(li, row, c);
  return li;
}

function metaFor(c) {
  if (c.status === 'pending') return metaLine([['Asked ', timeElement(c.created_at, true)], ['Expires ', timeElement(c.expires_at, true)]]);
  if (c.status === 'approved') {
    const factor = METHOD_WORDS[c.factor];
    return metaLine([['Approved ', timeElement(c.decided_at, true)], factor ? `with ${factor}` : null]);
  }
  if (c.status === 'declined') return metaLine([['Declined ', timeElement(c.decided_at, true)]]);
  if (c.status === 'expired') return metaLine([['Expired ', timeElement(c.expires_at, true)]]);
  return metaLine([['Asked ', timeElement(c.created_at, true)]]);
}

// "Approve with a passkey" and "Decline", and the row's own error line.
function addActions(li, row, c) {
  const actions = document.createElement('div');
  actions.className = 'item-actions';
  const approve = document.createElement('button');
  approve.type = 'button';
  approve.className = 'button button-primary button-small';
  approve.dataset.testid = 'confirmation-approve';
  approve.textContent = 'Approve with a passkey';
  const decline = document.createElement('button');
  decline.type = 'button';
  decline.className = 'button button-danger-quiet button-small';
  decline.dataset.testid = 'confirmation-decline';
  decline.textContent = 'Decline';
  const title = (c.text && c.text.title) || 'this';
  approve.setAttribute('aria-label', `Approve with a passkey: ${title}`);
  decline.setAttribute('aria-label', `Decline: ${title}`);
  actions.append(approve, decline);
  row.append(actions);
  const itemError = document.createElement('p');
  itemError.className = 'form-error item-error';
  itemError.setAttribute('role', 'alert');
  itemError.dataset.testid = 'confirmation-error';
  li.append(itemError);
  approve.addEventListener('click', () => {
    if (state.passkeyCount === 0) { showText(itemError, NO_PASSKEY); return; }
    act(approve, itemError, 'Waiting for your passkey…', () => approveWithPasskey(c), { unsupported: NO_PASSKEY_HERE });
  });
  decline.addEventListener('click', () => act(decline, itemError, 'Declining…', () => declineConfirmation(c)));
}

const NO_PASSKEY = 'Add a passkey below first, or approve it in the BioAuth app on your phone.';
const NO_PASSKEY_HERE = 'This browser does not support passkeys. Approve it in the BioAuth app on your phone.';

// Runs one of a row's actions; the list (and the activity) reloads when it is done. `overrides`:
// words for the row's error by code.
async function act(button, itemError, busyText, action, overrides) {
  clearMessage(itemError);
  clearMessage($('confirmations-status'));
  clearMessage($('confirmations-error'));
  setBusy(button, true, busyText);
  try {
    await action();
  } catch (e) {
    setBusy(button, false);
    if (e instanceof ApiError && (e.code === 'not_found' || e.code === 'confirmation_closed')) {
      showError($('confirmations-error'), e);
      loadConfirmations();
      return;
    }
    showError(itemError, e, overrides);
    return;
  }
  setBusy(button, false);
  await loadConfirmations();
  loadActivity();
}

// A passkey ceremony bound to this confirmation: its challenge is the confirmation's message.
async function approveWithPasskey(c) {
  if (!hasWebAuthn()) throw Object.assign(new Error('no WebAuthn'), { name: 'unsupported' });
  const id = encodeURIComponent(c.id);
  const options = await api('POST', `/web/confirmations/${id}/passkey-options`, {});
  rememberRpId(options.public_key);
  const credential = await navigator.credentials.get({ publicKey: parseRequestOptions(options.public_key) });
  if (!credential) throw Object.assign(new Error('no credential'), { name: 'NotAllowedError' });
  await api('POST', `/web/confirmations/${id}/passkey`, { ceremony_id: options.ceremony_id, credential: credentialToJSON(credential) });
  showText($('confirmations-status'), `Approved: ${c.text.title}.`);
}

async function declineConfirmation(c) {
  await api('POST', `/v1/confirmations/${encodeURIComponent(c.id)}/decline`, {});
  showText($('confirmations-status'), `Declined: ${c.text.title}.`);
}
