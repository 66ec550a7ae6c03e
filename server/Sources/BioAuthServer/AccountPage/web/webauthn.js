// WebAuthn's JSON forms in the browser: base64url, the server's options as the browser takes them,
// and a credential as the server takes it (the browser's own parse and toJSON where it has them).

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

export const hasWebAuthn = () => typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;

export function parseRequestOptions(json) {
  if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === 'function') {
    return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  }
  const options = { ...json, challenge: b64urlToBuffer(json.challenge) };
  if (Array.isArray(json.allowCredentials)) {
    options.allowCredentials = json.allowCredentials.map((c) => ({ ...c, id: b64urlToBuffer(c.id) }));
  }
  return options;
}

export function parseCreationOptions(json) {
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

export function credentialToJSON(credential) {
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
