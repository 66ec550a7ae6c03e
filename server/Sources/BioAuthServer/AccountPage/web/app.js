// BioAuth account page. Plain JavaScript in ES modules, no framework, no build step; the page is
// served with a strict Content-Security-Policy (no inline script, no inline style), so everything
// is wired up from here. This entry module connects the page's controls to the modules that act
// on them, and shows the view the browser's session calls for.

import { loadActivity } from './activity.js';
import { api, onSessionEnded } from './api.js';
import { loadConfirmations } from './confirmations.js';
import { $ } from './dom.js';
import { ApiError } from './errors.js';
import { showText, wordsFor } from './messages.js';
import { passkeySignIn, startAutofill } from './passkey-sign-in.js';
import { addPasskey } from './passkeys.js';
import { changePassword } from './password.js';
import { submitPasswordReset } from './password-reset.js';
import { dismissReauth, reauthWithPasskey, submitReauth } from './reauth.js';
import { signOutOthers } from './sessions.js';
import { passwordSignIn, showSignUp, signOut, signUp } from './sign-in.js';
import { state } from './state.js';
import { enterSignedIn, enterSignedOut } from './views.js';

function wireControls() {
  $('passkey-sign-in').addEventListener('click', passkeySignIn);
  $('sign-in-form').addEventListener('submit', passwordSignIn);
  $('sign-up-form').addEventListener('submit', signUp);
  $('show-sign-up').addEventListener('click', () => showSignUp(true));
  $('show-sign-in').addEventListener('click', () => showSignUp(false));
  $('sign-out').addEventListener('click', signOut);
  $('add-passkey').addEventListener('click', addPasskey);
  $('sign-out-others').addEventListener('click', signOutOthers);
  $('change-password-form').addEventListener('submit', changePassword);
  $('refresh-activity').addEventListener('click', () => loadActivity());
  $('refresh-confirmations').addEventListener('click', () => loadConfirmations());
  $('reauth-form').addEventListener('submit', submitReauth);
  $('reauth-passkey').addEventListener('click', reauthWithPasskey);
  $('password-reset-form').addEventListener('submit', submitPasswordReset);
  $('reauth-cancel').addEventListener('click', dismissReauth);
  $('reauth-form').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') $('reauth-cancel').click();
  });
  $('sign-in-username').addEventListener('focus', () => {
    if (state.autofillArmed && !state.web) startAutofill();
  });
}

async function init() {
  wireControls();
  // The session ended elsewhere (signed out everywhere else, expired, password changed).
  onSessionEnded(() => enterSignedOut('Your session has ended. Sign in again.'));

  let web = null;
  try {
    web = await api('GET', '/web/session');
  } catch (e) {
    if (!(e instanceof ApiError && (e.code === 'invalid_session' || e.status === 401))) {
      enterSignedOut();
      showText($('sign-in-error'), wordsFor(e));
      return;
    }
  }
  if (web) {
    enterSignedIn(web);
  } else {
    enterSignedOut();
    startAutofill();
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
