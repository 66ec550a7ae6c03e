// Changing the password (it signs the other sessions out).

import { loadActivity } from './activity.js';
import { api } from './api.js';
import { $, setBusy } from './dom.js';
import { Cancelled } from './errors.js';
import { clearMessage, showError, showText } from './messages.js';
import { withReauth } from './reauth.js';
import { loadSessions } from './sessions.js';
import { state } from './state.js';

export async function changePassword(event) {
  event.preventDefault();
  const errorEl = $('password-error');
  const statusEl = $('password-status');
  clearMessage(errorEl);
  clearMessage(statusEl);
  const current = $('current-password').value;
  const next = $('new-password').value;
  if (!current) { showText(errorEl, 'Enter your current password.'); $('current-password').focus(); return; }
  if (next.length < 8) { showText(errorEl, 'Choose a new password of at least 8 characters.'); $('new-password').focus(); return; }
  if (next === current) { showText(errorEl, 'The new password is the same as the current one.'); $('new-password').focus(); return; }
  const submit = $('change-password-submit');
  setBusy(submit, true, 'Changing…');
  try {
    await withReauth($('password-section'), () => api('PUT', '/v1/users/me/password', {
      current_password: current, new_password: next,
    }));
    $('change-password-form').reset();
    $('change-password-username').value = state.web ? state.web.user.username : '';
    showText(statusEl, 'Your password has been changed.');
  } catch (e) {
    if (!(e instanceof Cancelled)) {
      showError(errorEl, e, {
        invalid_credentials: 'The current password is not right.',
        invalid_password: 'The new password must be 8 to 256 characters long.',
      });
    }
  } finally {
    setBusy(submit, false);
  }
  loadSessions();
  loadActivity();
}
