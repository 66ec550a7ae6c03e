// The relying party's id as the server last named it, and what the page tells the authenticator
// about the account's passkeys.

import { state } from './state.js';
import { hasWebAuthn } from './webauthn.js';

// Takes the relying party's id from a ceremony's options.
export function rememberRpId(publicKey) {
  const id = publicKey && (publicKey.rpId || (publicKey.rp && publicKey.rp.id));
  if (id) state.rpId = id;
}

// The Signal API (WebAuthn Level 3): tell the authenticator which of its passkeys this site no
// longer knows, so it stops offering them. Best effort; never blocks the page.
export function signalUnknownCredential(rpId, credentialId) {
  if (!hasWebAuthn() || typeof PublicKeyCredential.signalUnknownCredential !== 'function') return;
  PublicKeyCredential.signalUnknownCredential({ rpId, credentialId }).catch(() => {});
}

export function signalAcceptedCredentials(passkeys) {
  if (!state.web || !hasWebAuthn()) return;
  if (typeof PublicKeyCredential.signalAllAcceptedCredentials !== 'function') return;
  if (!state.web.user_handle) return;
  PublicKeyCredential.signalAllAcceptedCredentials({
    rpId: state.rpId,
    userId: state.web.user_handle,
    allAcceptedCredentialIds: passkeys.map((p) => p.credential_id),
  }).catch(() => {});
}

export function signalUserDetails() {
  if (!state.web || !hasWebAuthn() || !state.web.user_handle) return;
  if (typeof PublicKeyCredential.signalCurrentUserDetails !== 'function') return;
  const name = state.web.user.username;
  PublicKeyCredential.signalCurrentUserDetails({
    rpId: state.rpId, userId: state.web.user_handle, name, displayName: name,
  }).catch(() => {});
}
