// A one-time password's session: a new password first.

import { api } from './api.js';
import { $, setBusy } from './dom.js';
import { ApiError } from './errors.js';
import { clearMessage, showError, showText } from './messages.js';
import { enterSignedIn, enterSignedOut } from './views.js';

export async function submitPasswordReset(event) {
  event.preventDefault();
  const errorEl = $('password-reset-error');
  clearMessage(errorEl);
  const next = $('password-reset-new').value;
  if (next.length < 8) { showText(errorEl, 'Choose a password of at least 8 characters.'); $('password-reset-new').focus(); return; }
  const submit = $('password-reset-submit');
  setBusy(submit, true, 'Saving…');
  try {
    await api('PUT', '/v1/users/me/password', { new_password: next });
    const web = await api('GET', '/web/session');
    setBusy(submit, false);
    enterSignedIn(web, 'Your new password is set. Add a passkey to sign in without it next time.');
  } catch (e) {
    setBusy(submit, false);
    if (e instanceof ApiError && e.code === 'invalid_session') {
      enterSignedOut('Those 15 minutes are over. Ask the support desk for a new one-time password.');
      return;
    }
    showError(errorEl, e, { invalid_password: 'The new password must be 8 to 256 characters long.' });
    $('password-reset-new').select();
  }
}
