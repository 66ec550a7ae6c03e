// The signed-out view's forms (sign in with a password, sign up), and signing out.

import { api } from './api.js';
import { $, setBusy } from './dom.js';
import { ApiError } from './errors.js';
import { clearMessage, showError, showText } from './messages.js';
import { stopAutofill } from './passkey-sign-in.js';
import { state } from './state.js';
import { enterSignedIn, enterSignedOut, hideNotice } from './views.js';

export async function passwordSignIn(event) {
  event.preventDefault();
  const form = $('sign-in-form');
  const errorEl = $('sign-in-error');
  clearMessage(errorEl);
  clearMessage($('passkey-error'));
  hideNotice();
  const username = $('sign-in-username').value.trim();
  const password = $('sign-in-password').value;
  if (!username || !password) {
    showText(errorEl, 'Enter your username and password.');
    (username ? $('sign-in-password') : $('sign-in-username')).focus();
    return;
  }
  setBusy($('sign-in-submit'), true, 'Signing in…');
  try {
    await stopAutofill();
    const web = await api('POST', '/web/sign-in/password', { username, password });
    form.reset();
    enterSignedIn(web);
  } catch (e) {
    showError(errorEl, e, { invalid_credentials: 'The username or password is not right.' });
    $('sign-in-password').select();
    state.autofillArmed = true;
  } finally {
    setBusy($('sign-in-submit'), false);
  }
}

export async function signUp(event) {
  event.preventDefault();
  const form = $('sign-up-form');
  const errorEl = $('sign-up-error');
  clearMessage(errorEl);
  hideNotice();
  const username = $('sign-up-username').value.trim();
  const password = $('sign-up-password').value;
  if (!username) { showText(errorEl, 'Choose a username.'); $('sign-up-username').focus(); return; }
  if (password.length < 8) {
    showText(errorEl, 'Choose a password of at least 8 characters.');
    $('sign-up-password').focus();
    return;
  }
  setBusy($('sign-up-submit'), true, 'Creating your account…');
  try {
    await stopAutofill();
    const web = await api('POST', '/web/sign-up', { username, password });
    form.reset();
    enterSignedIn(web, 'Your account is ready. Add a passkey to sign in without your password next time.');
  } catch (e) {
    showError(errorEl, e);
  } finally {
    setBusy($('sign-up-submit'), false);
  }
}

export function showSignUp(show) {
  $('sign-in-card').hidden = show;
  $('sign-up-card').hidden = !show;
  clearMessage($('sign-in-error'));
  clearMessage($('sign-up-error'));
  clearMessage($('passkey-error'));
  $(show ? 'sign-up-username' : 'sign-in-username').focus();
}

export async function signOut() {
  const button = $('sign-out');
  setBusy(button, true, 'Signing out…');
  try {
    await api('POST', '/web/sign-out', {});
  } catch (e) {
    if (!(e instanceof ApiError && e.code === 'invalid_session')) {
      setBusy(button, false);
      showError($('passkeys-error'), e);
      return;
    }
  }
  setBusy(button, false);
  enterSignedOut('You are signed out.');
}
