// Which view the page shows: signed out, a one-time password's new password, or the account.

import { loadActivity } from './activity.js';
import { loadConfirmations } from './confirmations.js';
import { loadDevices } from './devices.js';
import { $ } from './dom.js';
import { clearMessage, showText } from './messages.js';
import { loadPasskeys } from './passkeys.js';
import { cancelReauth } from './reauth.js';
import { loadSessions } from './sessions.js';
import { signalUserDetails } from './signals.js';
import { state } from './state.js';
import { METHOD_WORDS } from './words.js';

export function hideNotice() {
  const notice = $('signed-out-notice');
  notice.hidden = true;
  notice.textContent = '';
}

export function enterSignedOut(notice) {
  const wasSignedIn = !!state.web;
  state.web = null;
  state.csrf = null;
  state.passkeyCount = 0;
  state.renderToken += 1;
  cancelReauth();
  $('app-loading').hidden = true;
  $('account-bar').hidden = true;
  $('signed-in-view').hidden = true;
  $('password-reset-view').hidden = true;
  $('signed-out-view').hidden = false;
  $('sign-in-card').hidden = false;
  $('sign-up-card').hidden = true;
  for (const id of ['confirmation-list', 'passkey-list', 'device-list', 'session-list', 'activity-list']) $(id).replaceChildren();
  for (const id of ['sign-in-error', 'sign-up-error', 'passkey-error']) clearMessage($(id));
  const noticeEl = $('signed-out-notice');
  if (notice) {
    noticeEl.textContent = notice;
    noticeEl.hidden = false;
  } else {
    hideNotice();
  }
  document.title = 'Sign in · BioAuth';
  // After signing out, passkey autofill comes back when the username field is next focused
  // (not at once: an authenticator that answers by itself would sign straight back in).
  state.autofillArmed = true;
  if (wasSignedIn) $('main').focus();
}

// `web`: the WebSession the server answered; `notice`: a status line for the passkeys section.
export function enterSignedIn(web, notice) {
  clearTimeout(state.autofillTimer);
  if (state.autofill) state.autofill.controller.abort();
  state.web = web;
  if (web.rp_id) state.rpId = web.rp_id;
  state.csrf = web.csrf_token;
  state.autofillArmed = false;
  state.renderToken += 1;
  hideNotice();
  const username = web.user.username;
  $('app-loading').hidden = true;
  $('signed-out-view').hidden = true;
  $('current-username').textContent = username;
  if (web.session && web.session.password_change_required) {
    showPasswordReset(username);
    return;
  }
  $('password-reset-view').hidden = true;
  $('signed-in-view').hidden = false;
  $('account-bar').hidden = false;
  $('account-username').textContent = username;
  $('change-password-username').value = username;
  $('reauth-username').value = username;
  const method = web.session && web.session.authentication && web.session.authentication.method;
  $('account-method').textContent = METHOD_WORDS[method] ? ` with ${METHOD_WORDS[method]}` : '';
  document.title = `${username} · BioAuth`;
  for (const id of ['confirmations-error', 'confirmations-status', 'passkeys-error', 'passkeys-status', 'devices-error', 'sessions-error', 'sessions-status',
    'password-error', 'password-status', 'activity-error']) clearMessage($(id));
  if (notice) showText($('passkeys-status'), notice);
  $('account-title').focus();
  signalUserDetails();
  loadConfirmations();
  loadPasskeys();
  loadDevices();
  loadSessions();
  loadActivity();
}

// A one-time password's session can do nothing but set a new password (and sign out).
function showPasswordReset(username) {
  $('signed-in-view').hidden = true;
  $('account-bar').hidden = false;
  $('password-reset-view').hidden = false;
  $('password-reset-form').reset();
  $('password-reset-username').value = username;
  clearMessage($('password-reset-error'));
  document.title = `New password · BioAuth`;
  $('password-reset-new').focus();
}
