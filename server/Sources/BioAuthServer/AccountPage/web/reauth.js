// "Confirm it's you": an action the server refuses for want of a recent sign-in asks for the
// password or a passkey in its own section, renews the sign-in, and runs once more.

import { api } from './api.js';
import { $, setBusy } from './dom.js';
import { ApiError, Cancelled } from './errors.js';
import { clearMessage, showError, showText } from './messages.js';
import { rememberRpId } from './signals.js';
import { state } from './state.js';
import { credentialToJSON, hasWebAuthn, parseRequestOptions } from './webauthn.js';

// Runs `action`; when the server answers 403 reauthentication_required, asks for the password in
// `section`, renews the recent sign-in, and runs `action` once more.
export async function withReauth(section, action) {
  try {
    return await action();
  } catch (e) {
    if (!(e instanceof ApiError && e.code === 'reauthentication_required')) throw e;
  }
  await askReauth(section);
  return action();
}

function askReauth(section) {
  cancelReauth();
  const panel = $('reauth-panel');
  const slot = section.querySelector('.reauth-slot') || section;
  slot.appendChild(panel);
  $('reauth-form').reset();
  clearMessage($('reauth-error'));
  const passkeys = hasWebAuthn() && state.passkeyCount > 0;
  $('reauth-passkey').hidden = !passkeys;
  $('reauth-text').textContent = passkeys
    ? 'For your security, confirm it\'s you with your password or one of your passkeys to continue.'
    : 'For your security, enter your password again to continue.';
  panel.hidden = false;
  $('reauth-password').focus();
  return new Promise((resolve, reject) => { state.reauth = { resolve, reject, section }; });
}

export function cancelReauth() {
  const pending = state.reauth;
  state.reauth = null;
  $('reauth-panel').hidden = true;
  if (pending) pending.reject(new Cancelled());
}

// Cancel: the panel closes and the section's first enabled button takes the focus.
export function dismissReauth() {
  const section = state.reauth && state.reauth.section;
  cancelReauth();
  if (section) {
    const focusable = section.querySelector('button:not([disabled])');
    if (focusable) focusable.focus();
  }
}

export async function submitReauth(event) {
  event.preventDefault();
  const pending = state.reauth;
  if (!pending) return;
  const errorEl = $('reauth-error');
  clearMessage(errorEl);
  const password = $('reauth-password').value;
  if (!password) { showText(errorEl, 'Enter your password.'); $('reauth-password').focus(); return; }
  setBusy($('reauth-submit'), true, 'Checking…');
  try {
    await api('POST', '/v1/sessions/current/reauthenticate', { password });
  } catch (e) {
    setBusy($('reauth-submit'), false);
    showError(errorEl, e, { invalid_credentials: 'That password is not right.' });
    $('reauth-password').select();
    return;
  }
  setBusy($('reauth-submit'), false);
  finishReauth(pending);
}

// "Confirm it's you" with one of the account's passkeys: a ceremony bound to this session.
export async function reauthWithPasskey() {
  const pending = state.reauth;
  if (!pending) return;
  const errorEl = $('reauth-error');
  clearMessage(errorEl);
  const button = $('reauth-passkey');
  setBusy(button, true, 'Waiting for your passkey…');
  try {
    const options = await api('POST', '/v1/sessions/current/reauthenticate/passkey-options', {});
    rememberRpId(options.public_key);
    const credential = await navigator.credentials.get({ publicKey: parseRequestOptions(options.public_key) });
    if (!credential) throw Object.assign(new Error('no credential'), { name: 'NotAllowedError' });
    await api('POST', '/v1/sessions/current/reauthenticate', { ceremony_id: options.ceremony_id, credential: credentialToJSON(credential) });
  } catch (e) {
    setBusy(button, false);
    if (!(e && e.name === 'AbortError')) showError(errorEl, e);
    return;
  }
  setBusy(button, false);
  finishReauth(pending);
}

function finishReauth(pending) {
  state.reauth = null;
  $('reauth-form').reset();
  $('reauth-panel').hidden = true;
  pending.resolve();
}
