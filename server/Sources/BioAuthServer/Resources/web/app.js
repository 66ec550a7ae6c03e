// BioAuth account page. Plain JavaScript, no framework, no build step; the page is served with a strict
// Content-Security-Policy (no inline script, no inline style), so everything is wired up from here.
'use strict';

(() => {
  // ------------------------------------------------------------------ state

  const state = {
    csrf: null,          // WebSession.csrf_token, kept in memory only
    web: null,           // the current WebSession
    rpId: location.hostname,
    autofill: null,      // {controller, done} of the pending conditional-mediation request
    autofillArmed: false, // restart autofill when the username field is focused
    autofillTimer: 0,
    reauth: null,        // {resolve, reject} of the pending "Confirm it's you" prompt
    renderToken: 0,
    passkeyEpoch: 0,     // changes whenever a passkey is being added, so an older list never signals
    passkeyCount: 0,     // the account's passkeys as last listed (offers them for "Confirm it's you")
  };

  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------------ words

  const ERROR_WORDS = {
    invalid_request: 'Something in the form was not accepted. Check it and try again.',
    invalid_username: 'That username cannot be used. Choose 3 to 64 characters: letters, digits, dots, dashes and underscores.',
    invalid_password: 'Passwords must be 8 to 256 characters long.',
    username_taken: 'That username is already taken. Choose another one.',
    invalid_credentials: 'The username or password is not right.',
    rate_limited: 'Too many requests. Wait a moment and try again.',
    invalid_session: 'You are signed out. Sign in again.',
    reauthentication_required: 'For your security, confirm it\'s you with your password or a passkey, and try again.',
    password_change_required: 'Your account is waiting for a new password. Sign in with the one-time password the support desk gave you.',
    password_locked: 'Your password is locked after too many wrong tries. Contact the support desk to unlock it.',
    locked: 'Too many wrong tries. Wait a while and try again.',
    challenge_invalid: 'The request expired before it was finished. Try again.',
    passkey_unknown: 'This passkey is not registered with your account any more. Sign in another way, or use a different passkey.',
    passkey_invalid: 'The passkey\'s answer could not be verified, so it was refused. Try again, or sign in another way.',
    user_verification_required: 'Your device did not confirm it was you (fingerprint, face or screen lock). Try again.',
    duplicate_registration: 'This device already has a passkey for your account.',
    csrf_failed: 'This page is out of date. Reload it and try again.',
    not_found: 'That item no longer exists. The list has been refreshed.',
    network: 'Could not reach the server. Check your connection and try again.',
    server: 'Something went wrong on our side. Try again in a moment.',
  };

  const WEBAUTHN_WORDS = {
    NotAllowedError: 'The passkey was not used — verification was cancelled or failed.',
    InvalidStateError: 'This device already has a passkey for your account.',
    SecurityError: 'Passkeys cannot be used on this address (the site name does not match).',
    NotSupportedError: 'This browser or device cannot create the kind of passkey this site needs.',
    ConstraintError: 'This device cannot verify you (no fingerprint, face or screen lock is set up).',
    unsupported: 'This browser does not support passkeys. Sign in with your password.',
  };

  const METHOD_WORDS = {
    passkey: 'a passkey', password: 'a password', pin: 'a PIN', biometric: 'biometrics',
  };

  const AUDIT_WORDS = {
    'user.created': ['Account created'],
    'password.sign_in': ['Signed in with a password', 'Password sign-in failed'],
    'passkey.sign_in': ['Signed in with a passkey', 'Passkey sign-in failed'],
    'pin.sign_in': ['Signed in with a PIN', 'PIN sign-in failed'],
    'biometric.sign_in': ['Signed in with biometrics', 'Biometric sign-in failed'],
    'passkey.registered': ['Added a passkey', 'Adding a passkey failed'],
    'passkey.renamed': ['Renamed a passkey'],
    'passkey.deleted': ['Removed a passkey'],
    'biometric.registration_verified': ['Set up a device key', 'Setting up a device key failed'],
    'biometric.registration_deleted': ['Removed a device key'],
    'biometric.registration_renamed': ['Renamed a device key'],
    'session.signed_out': ['Signed out'],
    'session.revoked': ['Ended a session'],
    'session.others_revoked': ['Signed out everywhere else'],
    'session.reauthenticated': ['Confirmed it was you', 'Confirming it was you failed'],
    'password.changed': ['Changed the password', 'Changing the password failed'],
    'pin.set': ['Set a PIN', 'Setting a PIN failed'],
  };

  class ApiError extends Error {
    constructor(status, code, message, retryAfter) {
      super(message || code);
      this.name = 'ApiError';
      this.status = status;
      this.code = code;
      this.retryAfter = retryAfter;
    }
  }

  class Cancelled extends Error {
    constructor() { super('cancelled'); this.name = 'Cancelled'; }
  }

  function minutesText(seconds) {
    if (!Number.isFinite(seconds) || seconds <= 0) return 'a little while';
    if (seconds < 90) return `${Math.max(1, Math.round(seconds))} seconds`;
    const minutes = Math.ceil(seconds / 60);
    return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  }

  // An error in words, for the element next to the form that caused it. `overrides` gives
  // context-specific words per code (e.g. invalid_credentials on "current password").
  function wordsFor(error, overrides = {}) {
    if (error instanceof ApiError) {
      if (overrides[error.code]) return overrides[error.code];
      if (error.code === 'locked') {
        return `Too many failed attempts. Try again in ${minutesText(error.retryAfter)}.`;
      }
      if (error.code === 'rate_limited' && error.retryAfter) {
        return `Too many requests. Try again in ${minutesText(error.retryAfter)}.`;
      }
      if (ERROR_WORDS[error.code]) return ERROR_WORDS[error.code];
      if (error.status >= 500) return ERROR_WORDS.server;
      return 'That did not work. Try again.';
    }
    if (error && typeof error.name === 'string' && WEBAUTHN_WORDS[error.name]) {
      return overrides[error.name] || WEBAUTHN_WORDS[error.name];
    }
    return 'Something went wrong. Try again.';
  }

  function errorCode(error) {
    if (error instanceof ApiError) return error.code;
    if (error && error.name) return error.name;
    return 'unknown';
  }

  function showError(el, error, overrides) {
    if (!el) return;
    el.textContent = wordsFor(error, overrides);
    el.dataset.code = errorCode(error);
    delete el.dataset.load;
  }

  // A list that failed to load says so; the next successful load takes only that message away
  // (not an error that an action put there).
  function showLoadError(el, error) {
    showError(el, error);
    el.dataset.load = 'true';
  }

  function clearLoadError(el) {
    if (el && el.dataset.load) clearMessage(el);
  }

  function showText(el, text) {
    el.textContent = text;
    delete el.dataset.code;
  }

  function clearMessage(el) {
    if (!el) return;
    el.textContent = '';
    delete el.dataset.code;
    delete el.dataset.load;
  }

  // ------------------------------------------------------------------ HTTP

  async function api(method, path, body, retried = false) {
    const headers = { Accept: 'application/json' };
    const init = { method, headers, credentials: 'same-origin', cache: 'no-store' };
    if (method !== 'GET' && method !== 'HEAD') {
      headers['Content-Type'] = 'application/json';
      if (state.csrf) headers['X-CSRF-Token'] = state.csrf;
      if (method !== 'DELETE') init.body = JSON.stringify(body === undefined ? {} : body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (e) {
      throw new ApiError(0, 'network', String(e && e.message));
    }
    if (response.status === 204) return null;
    let payload = null;
    const text = await response.text();
    if (text) {
      try { payload = JSON.parse(text); } catch (_) { payload = null; }
    }
    if (!response.ok) {
      const err = (payload && payload.error) || {};
      const retryAfter = Number(response.headers.get('Retry-After'));
      const code = err.code || (response.status >= 500 ? 'server' : `http_${response.status}`);
      const error = new ApiError(response.status, code, err.message, Number.isFinite(retryAfter) ? retryAfter : undefined);
      if (error.code === 'csrf_failed' && state.web && !retried && await refreshCsrfToken()) {
        // The token in memory was stale (the server renewed it): take the current one, try once more.
        return api(method, path, body, true);
      }
      if (error.code === 'invalid_session' && state.web && !path.startsWith('/web/sign-')) {
        // The session ended elsewhere (signed out everywhere else, expired, password changed).
        enterSignedOut('Your session has ended. Sign in again.');
      }
      throw error;
    }
    return payload;
  }

  // GET /web/session again; true when it handed out a different CSRF token than the one in memory.
  async function refreshCsrfToken() {
    try {
      const response = await fetch('/web/session', { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } });
      if (!response.ok) return false;
      const web = await response.json();
      if (!web || !web.csrf_token || web.csrf_token === state.csrf) return false;
      state.csrf = web.csrf_token;
      if (state.web) state.web.csrf_token = web.csrf_token;
      return true;
    } catch (_) {
      return false;
    }
  }

  // ------------------------------------------------------------------ WebAuthn helpers

  function b64urlToBuffer(value) {
    const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }

  function bufferToB64url(buffer) {
    const bytes = new Uint8Array(buffer);
    let binary = '';
    for (let i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  const hasWebAuthn = () => typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;

  function parseRequestOptions(json) {
    if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === 'function') {
      return PublicKeyCredential.parseRequestOptionsFromJSON(json);
    }
    const options = { ...json, challenge: b64urlToBuffer(json.challenge) };
    if (Array.isArray(json.allowCredentials)) {
      options.allowCredentials = json.allowCredentials.map((c) => ({ ...c, id: b64urlToBuffer(c.id) }));
    }
    return options;
  }

  function parseCreationOptions(json) {
    if (typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function') {
      return PublicKeyCredential.parseCreationOptionsFromJSON(json);
    }
    const options = {
      ...json,
      challenge: b64urlToBuffer(json.challenge),
      user: { ...json.user, id: b64urlToBuffer(json.user.id) },
    };
    if (Array.isArray(json.excludeCredentials)) {
      options.excludeCredentials = json.excludeCredentials.map((c) => ({ ...c, id: b64urlToBuffer(c.id) }));
    }
    return options;
  }

  function credentialToJSON(credential) {
    if (typeof credential.toJSON === 'function') return credential.toJSON();
    const r = credential.response;
    const response = { clientDataJSON: bufferToB64url(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = bufferToB64url(r.attestationObject);
      if (typeof r.getTransports === 'function') response.transports = r.getTransports();
      if (typeof r.getAuthenticatorData === 'function') response.authenticatorData = bufferToB64url(r.getAuthenticatorData());
      if (typeof r.getPublicKeyAlgorithm === 'function') response.publicKeyAlgorithm = r.getPublicKeyAlgorithm();
      if (typeof r.getPublicKey === 'function' && r.getPublicKey()) response.publicKey = bufferToB64url(r.getPublicKey());
    } else {
      response.authenticatorData = bufferToB64url(r.authenticatorData);
      response.signature = bufferToB64url(r.signature);
      if (r.userHandle) response.userHandle = bufferToB64url(r.userHandle);
    }
    return {
      id: credential.id,
      rawId: bufferToB64url(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
      response,
    };
  }

  function rememberRpId(publicKey) {
    const id = publicKey && (publicKey.rpId || (publicKey.rp && publicKey.rp.id));
    if (id) state.rpId = id;
  }

  // The Signal API (WebAuthn Level 3): tell the authenticator which of its passkeys this site no
  // longer knows, so it stops offering them. Best effort; never blocks the page.
  function signalUnknownCredential(rpId, credentialId) {
    if (!hasWebAuthn() || typeof PublicKeyCredential.signalUnknownCredential !== 'function') return;
    PublicKeyCredential.signalUnknownCredential({ rpId, credentialId }).catch(() => {});
  }

  function signalAcceptedCredentials(passkeys) {
    if (!state.web || !hasWebAuthn()) return;
    if (typeof PublicKeyCredential.signalAllAcceptedCredentials !== 'function') return;
    if (!state.web.user_handle) return;
    PublicKeyCredential.signalAllAcceptedCredentials({
      rpId: state.rpId,
      userId: state.web.user_handle,
      allAcceptedCredentialIds: passkeys.map((p) => p.credential_id),
    }).catch(() => {});
  }

  function signalUserDetails() {
    if (!state.web || !hasWebAuthn() || !state.web.user_handle) return;
    if (typeof PublicKeyCredential.signalCurrentUserDetails !== 'function') return;
    const name = state.web.user.username;
    PublicKeyCredential.signalCurrentUserDetails({
      rpId: state.rpId, userId: state.web.user_handle, name, displayName: name,
    }).catch(() => {});
  }

  // ------------------------------------------------------------------ passkey autofill (conditional mediation)

  async function startAutofill() {
    state.autofillArmed = false;
    if (state.web || state.autofill || !hasWebAuthn()) return;
    if (typeof PublicKeyCredential.isConditionalMediationAvailable !== 'function') return;
    let available = false;
    try { available = await PublicKeyCredential.isConditionalMediationAvailable(); } catch (_) { available = false; }
    if (!available || state.web || state.autofill) return;

    const controller = new AbortController();
    let finish;
    const entry = { controller, done: new Promise((resolve) => { finish = resolve; }) };
    state.autofill = entry;
    try {
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
    } finally {
      if (state.autofill === entry) state.autofill = null;
      finish();
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
  async function stopAutofill() {
    clearTimeout(state.autofillTimer);
    const entry = state.autofill;
    if (!entry) return;
    entry.controller.abort();
    await entry.done;
  }

  // ------------------------------------------------------------------ signing in and out

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

  async function passkeySignIn() {
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

  async function passwordSignIn(event) {
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

  async function signUp(event) {
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

  async function signOut() {
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

  function showSignUp(show) {
    $('sign-in-card').hidden = show;
    $('sign-up-card').hidden = !show;
    clearMessage($('sign-in-error'));
    clearMessage($('sign-up-error'));
    clearMessage($('passkey-error'));
    $(show ? 'sign-up-username' : 'sign-in-username').focus();
  }

  function hideNotice() {
    const notice = $('signed-out-notice');
    notice.hidden = true;
    notice.textContent = '';
  }

  function enterSignedOut(notice) {
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
    for (const id of ['passkey-list', 'device-list', 'session-list', 'activity-list']) $(id).replaceChildren();
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

  function enterSignedIn(web, notice) {
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
      // A one-time password's session can do nothing but set a new password (and sign out).
      $('signed-in-view').hidden = true;
      $('account-bar').hidden = false;
      $('password-reset-view').hidden = false;
      $('password-reset-form').reset();
      $('password-reset-username').value = username;
      clearMessage($('password-reset-error'));
      document.title = `New password · BioAuth`;
      $('password-reset-new').focus();
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
    for (const id of ['passkeys-error', 'passkeys-status', 'devices-error', 'sessions-error', 'sessions-status',
      'password-error', 'password-status', 'activity-error']) clearMessage($(id));
    if (notice) showText($('passkeys-status'), notice);
    $('account-title').focus();
    signalUserDetails();
    loadPasskeys();
    loadDevices();
    loadSessions();
    loadActivity();
  }

  // ------------------------------------------------------------------ "Confirm it's you"

  // Runs `action`; when the server answers 403 reauthentication_required, asks for the password in
  // `section`, renews the recent sign-in, and runs `action` once more.
  async function withReauth(section, action) {
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

  function cancelReauth() {
    const pending = state.reauth;
    state.reauth = null;
    $('reauth-panel').hidden = true;
    if (pending) pending.reject(new Cancelled());
  }

  async function submitReauth(event) {
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
  async function reauthWithPasskey() {
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

  // ------------------------------------------------------------------ a one-time password's new password

  async function submitPasswordReset(event) {
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

  // ------------------------------------------------------------------ rendering helpers

  const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const relativeFormat = typeof Intl.RelativeTimeFormat === 'function'
    ? new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }) : null;

  function timeElement(iso, relative) {
    const el = document.createElement('time');
    const date = new Date(iso);
    if (!iso || Number.isNaN(date.getTime())) {
      el.textContent = 'unknown';
      return el;
    }
    el.dateTime = iso;
    el.title = dateFormat.format(date);
    el.textContent = relative ? relativeTime(date) : dateFormat.format(date);
    return el;
  }

  function relativeTime(date) {
    const seconds = (date.getTime() - Date.now()) / 1000;
    const abs = Math.abs(seconds);
    if (!relativeFormat) return dateFormat.format(date);
    if (abs < 45) return seconds <= 0 ? 'just now' : 'in a moment';
    const units = [['minute', 60, 3600], ['hour', 3600, 86400], ['day', 86400, 604800]];
    for (const [unit, size, limit] of units) {
      if (abs < limit) return relativeFormat.format(Math.round(seconds / size), unit);
    }
    return dateFormat.format(date);
  }

  // Builds "Added <time> · Last used <time>" style metadata from parts (strings or nodes).
  function metaLine(parts) {
    const fragment = document.createDocumentFragment();
    parts.filter(Boolean).forEach((part, index) => {
      if (index > 0) fragment.append(' · ');
      if (Array.isArray(part)) fragment.append(...part);
      else fragment.append(part);
    });
    return fragment;
  }

  function badge(text, kind) {
    const el = document.createElement('span');
    el.className = `badge${kind ? ` badge-${kind}` : ''}`;
    el.textContent = text;
    return el;
  }

  function emptyItem(text, testid) {
    const li = document.createElement('li');
    li.className = 'item item-empty';
    li.dataset.testid = testid;
    li.textContent = text;
    return li;
  }

  const ICONS = {
    passkey: '<svg viewBox="0 0 24 24" width="22" height="22" focusable="false"><circle cx="9" cy="8" r="4" fill="none" stroke="currentColor" stroke-width="2"/><path d="M2 20c0-3.3 3.1-6 7-6 1.4 0 2.7.3 3.8.9" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><circle cx="18" cy="13" r="3" fill="none" stroke="currentColor" stroke-width="2"/><path d="M18 16v5l1.5-1.5M18 19l1.5-1" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>',
    biometric: '<svg viewBox="0 0 24 24" width="22" height="22" focusable="false"><path d="M12 4a7 7 0 0 0-7 7v2m14-2a7 7 0 0 0-4.5-6.5M9 20c1.2-1.9 2-4.3 2-7v-2a1 1 0 0 1 2 0v2c0 3-.8 5.8-2.3 8M15 19.5c.6-1.7.9-3.8.9-6.5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
    pin: '<svg viewBox="0 0 24 24" width="22" height="22" focusable="false"><rect x="3" y="6" width="18" height="12" rx="3" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="8" cy="12" r="1.3" fill="currentColor"/><circle cx="12" cy="12" r="1.3" fill="currentColor"/><circle cx="16" cy="12" r="1.3" fill="currentColor"/></svg>',
    session: '<svg viewBox="0 0 24 24" width="22" height="22" focusable="false"><rect x="3" y="4" width="18" height="12" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M8 20h8M12 16v4" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
  };

  function setIcon(container, name) {
    // Static, trusted SVG markup from ICONS above (never server data).
    container.innerHTML = ICONS[name] || '';
  }

  // One row of a list that can be renamed and removed (passkeys and device keys), built from the
  // <template> in index.html. `kind` prefixes every data-testid ("passkey-rename", …).
  function managedItem({ kind, id, label, icon, badges, meta, noun, section, errorEl, statusEl, rename, remove, refresh }) {
    const li = $('managed-item-template').content.firstElementChild.cloneNode(true);
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

    const renameButton = li.querySelector('.item-rename');
    const removeButton = li.querySelector('.item-remove');
    const form = li.querySelector('.item-rename-form');
    const input = li.querySelector('.item-rename-input');
    const inputLabel = li.querySelector('.inline-label');
    const confirm = li.querySelector('.item-confirm');
    const itemError = li.querySelector('.item-error');
    const inputId = `${kind}-rename-${id}`;
    input.id = inputId;
    inputLabel.htmlFor = inputId;
    inputLabel.textContent = `New name for ${label}`;
    renameButton.setAttribute('aria-label', `Rename ${label}`);
    removeButton.setAttribute('aria-label', `Remove ${label}`);
    renameButton.dataset.testid = `${kind}-rename`;
    removeButton.dataset.testid = `${kind}-remove`;
    input.dataset.testid = `${kind}-label-input`;
    li.querySelector('.item-save').dataset.testid = `${kind}-save`;
    li.querySelector('.item-cancel').dataset.testid = `${kind}-rename-cancel`;
    li.querySelector('.item-confirm-yes').dataset.testid = `${kind}-remove-yes`;
    li.querySelector('.item-confirm-no').dataset.testid = `${kind}-remove-no`;
    li.querySelector('.confirm-text').textContent = `Remove ${noun} “${label}”?`;
    confirm.setAttribute('aria-label', `Confirm removing ${label}`);
    itemError.dataset.testid = `${kind}-item-error`;

    const actions = li.querySelector('.item-actions');
    const clearSection = () => { clearMessage(errorEl); clearMessage(statusEl); };
    const closeAll = () => {
      form.hidden = true;
      confirm.hidden = true;
      actions.hidden = false;
      clearMessage(itemError);
    };

    renameButton.addEventListener('click', () => {
      closeAll();
      clearSection();
      actions.hidden = true;
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

    removeButton.addEventListener('click', () => {
      closeAll();
      clearSection();
      actions.hidden = true;
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
    return li;
  }

  function setBusy(button, busy, busyText) {
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

  // Runs a loader only while the same signed-in render is current (a sign-out in between drops it).
  function guarded(loader) {
    return async (...args) => {
      const token = state.renderToken;
      try {
        await loader(() => token === state.renderToken && !!state.web, ...args);
      } catch (e) {
        if (e instanceof ApiError && e.code === 'invalid_session') return;
        throw e;
      }
    };
  }

  // ------------------------------------------------------------------ passkeys

  const loadPasskeys = guarded(async (current) => {
    const errorEl = $('passkeys-error');
    const epoch = state.passkeyEpoch;
    let data;
    try {
      data = await api('GET', '/v1/passkeys');
    } catch (e) {
      if (current()) showLoadError(errorEl, e);
      return;
    }
    if (!current()) return;
    const passkeys = data.passkeys || [];
    state.passkeyCount = passkeys.length;
    const list = $('passkey-list');
    const section = $('passkeys-section');
    list.replaceChildren(...passkeys.map((p) => {
      const label = p.label || p.authenticator || 'Passkey';
      const maker = p.authenticator || 'Passkey';
      const meta = metaLine([
        maker === label ? null : maker,
        ['Added ', timeElement(p.created_at, false)],
        p.last_used_at ? ['Last used ', timeElement(p.last_used_at, true)] : 'Never used',
      ]);
      const badges = p.backed_up ? [badge('synced', 'synced')] : [];
      return managedItem({
        kind: 'passkey', id: p.id, label, icon: 'passkey', badges, meta, noun: 'the passkey', section, errorEl,
        statusEl: $('passkeys-status'),
        rename: async (value) => {
          await api('PATCH', `/v1/passkeys/${encodeURIComponent(p.id)}`, { label: value });
          showText($('passkeys-status'), `Renamed the passkey to “${value}”.`);
          await loadPasskeys();
          loadActivity();
        },
        remove: async () => {
          await api('DELETE', `/v1/passkeys/${encodeURIComponent(p.id)}`);
          showText($('passkeys-status'), `Removed the passkey “${label}”. It can no longer be used to sign in.`);
          await loadPasskeys();
          loadActivity();
        },
        refresh: () => loadPasskeys(),
      });
    }));
    if (passkeys.length === 0) {
      list.append(emptyItem('No passkeys yet. Add one to sign in with your fingerprint, face or screen lock.', 'passkey-empty'));
    }
    clearLoadError(errorEl);
    // Tell the authenticator which passkeys the account still accepts, unless a passkey was being
    // added while this list was fetched (it would not be on it yet).
    if (epoch === state.passkeyEpoch && epoch % 2 === 0) signalAcceptedCredentials(passkeys);
  });

  async function addPasskey() {
    const button = $('add-passkey');
    const errorEl = $('passkeys-error');
    const statusEl = $('passkeys-status');
    clearMessage(errorEl);
    clearMessage(statusEl);
    if (!hasWebAuthn()) { showError(errorEl, { name: 'unsupported' }); return; }
    setBusy(button, true, 'Adding a passkey…');
    state.passkeyEpoch += 1; // odd: adding
    try {
      const result = await withReauth($('passkeys-section'), async () => {
        const options = await api('POST', '/v1/passkeys/registration-options', {});
        rememberRpId(options.public_key);
        const credential = await navigator.credentials.create({ publicKey: parseCreationOptions(options.public_key) });
        if (!credential) throw Object.assign(new Error('no credential'), { name: 'NotAllowedError' });
        return api('POST', '/v1/passkeys', { ceremony_id: options.ceremony_id, credential: credentialToJSON(credential) });
      });
      const passkey = result && result.passkey;
      const name = passkey ? (passkey.label || passkey.authenticator || 'Passkey') : 'Passkey';
      showText(statusEl, `Passkey “${name}” added. Next time, sign in with it instead of your password.`);
    } catch (e) {
      if (!(e instanceof Cancelled)) showError(errorEl, e);
    } finally {
      setBusy(button, false);
      state.passkeyEpoch += 1; // even: settled
    }
    await loadPasskeys();
    loadActivity();
  }

  // ------------------------------------------------------------------ devices

  const loadDevices = guarded(async (current) => {
    const errorEl = $('devices-error');
    let data;
    try {
      data = await api('GET', '/v1/biometric/registrations');
    } catch (e) {
      if (current()) showLoadError(errorEl, e);
      return;
    }
    if (!current()) return;
    const registrations = data.registrations || [];
    const section = $('devices-section');
    const list = $('device-list');
    list.replaceChildren(...registrations.map((r) => {
      const kindWords = r.kind === 'pin' ? 'PIN key' : 'Biometric key';
      const label = r.label || kindWords;
      const meta = metaLine([
        kindWords,
        ['Added ', timeElement(r.created_at, false)],
        r.last_used_at ? ['Last used ', timeElement(r.last_used_at, true)] : 'Never used',
      ]);
      const badges = r.status === 'pending' ? [badge('setup not finished', 'muted')] : [];
      return managedItem({
        kind: 'device', id: r.id, label, icon: r.kind === 'pin' ? 'pin' : 'biometric', badges, meta,
        noun: r.kind === 'pin' ? 'the PIN key' : 'the device key', section, errorEl, statusEl: null,
        rename: async (value) => {
          await api('PATCH', `/v1/biometric/registrations/${encodeURIComponent(r.id)}`, { label: value });
          await loadDevices();
          loadActivity();
        },
        remove: async () => {
          await api('DELETE', `/v1/biometric/registrations/${encodeURIComponent(r.id)}`);
          await loadDevices();
          loadActivity();
        },
        refresh: () => loadDevices(),
      });
    }));
    if (registrations.length === 0) {
      list.append(emptyItem('No devices yet. Keys you set up in the BioAuth mobile app appear here.', 'device-empty'));
    }
    clearLoadError(errorEl);
  });

  // ------------------------------------------------------------------ sessions

  const loadSessions = guarded(async (current) => {
    const errorEl = $('sessions-error');
    let data;
    try {
      data = await api('GET', '/v1/sessions');
    } catch (e) {
      if (current()) showLoadError(errorEl, e);
      return;
    }
    if (!current()) return;
    const currentId = state.web.session.id;
    const sessions = (data.sessions || []).slice().sort((a, b) => {
      if (a.id === currentId) return -1;
      if (b.id === currentId) return 1;
      return String(b.created_at).localeCompare(String(a.created_at));
    });
    const list = $('session-list');
    list.replaceChildren(...sessions.map((s) => sessionItem(s, s.id === currentId)));
    $('sign-out-others').disabled = sessions.filter((s) => s.id !== currentId).length === 0;
    clearLoadError(errorEl);
  });

  function sessionItem(session, isCurrent) {
    const li = document.createElement('li');
    li.className = `item${isCurrent ? ' item-current' : ''}`;
    li.dataset.testid = 'session-item';
    li.dataset.id = session.id;
    if (isCurrent) li.dataset.current = 'true';
    const row = document.createElement('div');
    row.className = 'item-row';
    const icon = document.createElement('div');
    icon.className = 'item-icon';
    icon.setAttribute('aria-hidden', 'true');
    setIcon(icon, 'session');
    const main = document.createElement('div');
    main.className = 'item-main';
    const title = document.createElement('p');
    title.className = 'item-title';
    const method = session.authentication && session.authentication.method;
    const label = document.createElement('span');
    label.className = 'item-label';
    label.textContent = METHOD_WORDS[method] ? `Signed in with ${METHOD_WORDS[method]}` : 'Signed in';
    title.append(label);
    const badges = document.createElement('span');
    badges.className = 'item-badges';
    if (isCurrent) {
      const b = badge('This browser', 'current');
      b.dataset.testid = 'session-current';
      badges.append(b);
    }
    title.append(badges);
    const meta = document.createElement('p');
    meta.className = 'item-meta';
    meta.append(metaLine([
      ['Started ', timeElement(session.created_at, false)],
      session.authenticated_at && session.authenticated_at !== session.created_at
        ? ['Confirmed ', timeElement(session.authenticated_at, true)] : null,
      ['Expires ', timeElement(session.expires_at, false)],
    ]));
    main.append(title, meta);
    row.append(icon, main);
    const itemError = document.createElement('p');
    itemError.className = 'form-error item-error';
    itemError.setAttribute('role', 'alert');
    if (!isCurrent) {
      const actions = document.createElement('div');
      actions.className = 'item-actions';
      const end = document.createElement('button');
      end.type = 'button';
      end.className = 'button button-secondary button-small';
      end.textContent = 'End';
      end.dataset.testid = 'session-end';
      end.setAttribute('aria-label', `End session started ${dateFormat.format(new Date(session.created_at))}`);
      end.addEventListener('click', async () => {
        clearMessage(itemError);
        setBusy(end, true, 'Ending…');
        try {
          await withReauth($('sessions-section'), () => api('DELETE', `/v1/sessions/${encodeURIComponent(session.id)}`));
          showText($('sessions-status'), 'That session has ended.');
        } catch (e) {
          setBusy(end, false);
          if (e instanceof Cancelled) return;
          if (!(e instanceof ApiError && e.code === 'not_found')) { showError(itemError, e); return; }
        }
        await loadSessions();
        loadActivity();
      });
      actions.append(end);
      row.append(actions);
    }
    li.append(row, itemError);
    return li;
  }

  async function signOutOthers() {
    const button = $('sign-out-others');
    const errorEl = $('sessions-error');
    const statusEl = $('sessions-status');
    clearMessage(errorEl);
    clearMessage(statusEl);
    setBusy(button, true, 'Signing out…');
    try {
      await withReauth($('sessions-section'), () => api('DELETE', '/v1/sessions'));
      showText(statusEl, 'You are signed out everywhere else. Only this browser is still signed in.');
    } catch (e) {
      if (!(e instanceof Cancelled)) showError(errorEl, e);
    } finally {
      setBusy(button, false);
    }
    await loadSessions();
    loadActivity();
  }

  // ------------------------------------------------------------------ password

  async function changePassword(event) {
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

  // ------------------------------------------------------------------ activity

  const loadActivity = guarded(async (current) => {
    const errorEl = $('activity-error');
    let data;
    try {
      data = await api('GET', '/v1/audit');
    } catch (e) {
      if (current()) showLoadError(errorEl, e);
      return;
    }
    if (!current()) return;
    const events = (data.events || []).slice().sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
    const list = $('activity-list');
    list.replaceChildren(...events.map(activityItem));
    if (events.length === 0) {
      const li = document.createElement('li');
      li.className = 'activity activity-empty';
      li.textContent = 'Nothing yet.';
      list.append(li);
    }
    clearLoadError(errorEl);
  });

  function humanizeType(type) {
    const words = String(type).replace(/[._]/g, ' ');
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function activityItem(event) {
    const li = document.createElement('li');
    const outcome = event.outcome || 'success';
    li.className = `activity activity-${outcome}`;
    li.dataset.testid = 'activity-item';
    li.dataset.type = event.type;
    li.dataset.outcome = outcome;
    const words = AUDIT_WORDS[event.type];
    let text;
    if (!words) text = humanizeType(event.type);
    else if (outcome === 'success' || !words[1]) text = words[0];
    else text = words[1];
    const dot = document.createElement('span');
    dot.className = 'activity-dot';
    dot.setAttribute('aria-hidden', 'true');
    const body = document.createElement('div');
    body.className = 'activity-body';
    const title = document.createElement('p');
    title.className = 'activity-title';
    const titleText = document.createElement('span');
    titleText.dataset.testid = 'activity-text';
    titleText.textContent = text;
    title.append(titleText);
    if (outcome === 'failure') title.append(' ', badge('failed', 'failure'));
    else if (outcome === 'locked') title.append(' ', badge('locked: too many attempts', 'failure'));
    else if (outcome !== 'success') title.append(' ', badge(outcome, 'muted'));
    if (event.count && event.count > 1) {
      const count = badge(`${event.count} times`, 'muted');
      count.dataset.testid = 'activity-count';
      title.append(' ', count);
    }
    if (state.web && event.session_id && event.session_id === state.web.session.id && /sign_in$/.test(event.type)) {
      title.append(' ', badge('this browser', 'current'));
    }
    const meta = document.createElement('p');
    meta.className = 'activity-meta';
    meta.append(timeElement(event.created_at, false));
    body.append(title, meta);
    li.append(dot, body);
    return li;
  }

  // ------------------------------------------------------------------ start

  async function init() {
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
    $('reauth-form').addEventListener('submit', submitReauth);
    $('reauth-passkey').addEventListener('click', reauthWithPasskey);
    $('password-reset-form').addEventListener('submit', submitPasswordReset);
    $('reauth-cancel').addEventListener('click', () => {
      const section = state.reauth && state.reauth.section;
      cancelReauth();
      if (section) {
        const focusable = section.querySelector('button:not([disabled])');
        if (focusable) focusable.focus();
      }
    });
    $('reauth-form').addEventListener('keydown', (event) => {
      if (event.key === 'Escape') $('reauth-cancel').click();
    });
    $('sign-in-username').addEventListener('focus', () => {
      if (state.autofillArmed && !state.web) startAutofill();
    });

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
})();
