// Signing in with a passkey: the button, and autofill (conditional mediation) in the username field.

import { api } from './api.js';
import { $, setBusy } from './dom.js';
import { ApiError } from './errors.js';
import { clearMessage, showError } from './messages.js';
import { rememberRpId, signalUnknownCredential } from './signals.js';
import { state } from './state.js';
import { enterSignedIn, hideNotice } from './views.js';
import { credentialToJSON, hasWebAuthn, parseRequestOptions } from './webauthn.js';

// The "Sign in with a passkey" button: a modal request (autofill steps aside for it).
export async function passkeySignIn() {
  const button = $('passkey-sign-in');
  const errorEl = $('passkey-error');
  clearMessage(errorEl);
  clearMessage($('sign-in-error'));
  hideNotice();
  if (!hasWebAuthn()) {
    showError(errorEl, { name: 'unsupported' });
    return;
  }
  setBusy(button, true, 'Waiting for your passkey…');
  try {
    await stopAutofill();
    const options = await api('POST', '/v1/passkeys/authentication-options', {});
    rememberRpId(options.public_key);
    const credential = await navigator.credentials.get({ publicKey: parseRequestOptions(options.public_key) });
    if (!credential) throw Object.assign(new Error('no credential'), { name: 'NotAllowedError' });
    await finishPasskeySignIn(options, credential);
  } catch (e) {
    if (e && e.name === 'AbortError') return;
    showError(errorEl, e, {
      passkey_unknown: 'This passkey is not registered with any account here (it may have been removed). Sign in with your password, or use another passkey.',
    });
    state.autofillArmed = true;
  } finally {
    setBusy(button, false);
  }
}

// The chosen passkey's answer to the server; a passkey the server does not know is signalled
// to the authenticator.
async function finishPasskeySignIn(options, credential) {
  try {
    const web = await api('POST', '/web/sign-in/passkey', {
      ceremony_id: options.ceremony_id,
      credential: credentialToJSON(credential),
    });
    enterSignedIn(web);
  } catch (e) {
    if (e instanceof ApiError && e.code === 'passkey_unknown') {
      signalUnknownCredential((options.public_key && options.public_key.rpId) || state.rpId, credential.id);
    }
    throw e;
  }
}

// Passkey autofill: offers the account's passkeys in the username field's suggestions (a
// conditional request), and signs in with the one chosen.
export async function startAutofill() {
  state.autofillArmed = false;
  if (state.web || state.autofill || !hasWebAuthn()) return;
  if (!(await conditionalMediationAvailable()) || state.web || state.autofill) return;

  const controller = new AbortController();
  let finish;
  const entry = { controller, done: new Promise((resolve) => { finish = resolve; }) };
  state.autofill = entry;
  try {
    await offerPasskeys(entry);
  } finally {
    if (state.autofill === entry) state.autofill = null;
    finish();
  }
}

async function conditionalMediationAvailable() {
  if (typeof PublicKeyCredential.isConditionalMediationAvailable !== 'function') return false;
  try { return await PublicKeyCredential.isConditionalMediationAvailable(); } catch (_) { return false; }
}

// One conditional request: the server's options, the browser's suggestions until one is chosen
// (or the request is aborted), then the sign-in.
async function offerPasskeys(entry) {
  const { controller } = entry;
  let options;
  try {
    options = await api('POST', '/v1/passkeys/authentication-options', {});
  } catch (_) {
    return; // autofill is a convenience: the buttons still work
  }
  if (controller.signal.aborted) return;
  rememberRpId(options.public_key);
  scheduleAutofillRenewal(options.public_key, entry);
  let credential;
  try {
    credential = await navigator.credentials.get({
      mediation: 'conditional',
      publicKey: parseRequestOptions(options.public_key),
      signal: controller.signal,
    });
  } catch (e) {
    if (controller.signal.aborted || (e && e.name === 'AbortError')) return;
    // Nothing was chosen, or the authenticator refused (some browsers end a conditional request
    // when there is no passkey to offer): the user asked for nothing, so nothing is shown.
    // Autofill is offered again the next time the username field is focused.
    state.autofillArmed = true;
    return;
  }
  if (!credential || controller.signal.aborted) return;
  clearTimeout(state.autofillTimer);
  try {
    await finishPasskeySignIn(options, credential);
  } catch (e) {
    showError($('sign-in-error'), e);
    state.autofillArmed = true;
  }
}

// A ceremony expires on the server; renew the pending autofill request before it does.
function scheduleAutofillRenewal(publicKey, entry) {
  clearTimeout(state.autofillTimer);
  const timeout = Number(publicKey && publicKey.timeout) || 300000;
  state.autofillTimer = setTimeout(async () => {
    if (state.autofill !== entry || state.web) return;
    await stopAutofill();
    startAutofill();
  }, Math.max(30000, timeout - 5000));
}

// Aborts the pending conditional request and waits until the browser has let go of it, so that
// a modal passkey request or a password submit can follow.
export async function stopAutofill() {
  clearTimeout(state.autofillTimer);
  const entry = state.autofill;
  if (!entry) return;
  entry.controller.abort();
  await entry.done;
}
