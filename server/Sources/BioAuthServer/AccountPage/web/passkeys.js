// Passkeys: the account's list, adding one (a registration ceremony), renaming and removing.

import { loadActivity } from './activity.js';
import { api } from './api.js';
import { $, setBusy } from './dom.js';
import { Cancelled } from './errors.js';
import { metaLine, timeElement } from './format.js';
import { fetchSection, guarded } from './guarded.js';
import { badge, emptyItem } from './items.js';
import { managedItem } from './managed-item.js';
import { clearLoadError, clearMessage, showError, showText } from './messages.js';
import { withReauth } from './reauth.js';
import { rememberRpId, signalAcceptedCredentials } from './signals.js';
import { state } from './state.js';
import { credentialToJSON, hasWebAuthn, parseCreationOptions } from './webauthn.js';

export const loadPasskeys = guarded(async (current) => {
  const errorEl = $('passkeys-error');
  const epoch = state.passkeyEpoch;
  const data = await fetchSection(current, errorEl, '/v1/passkeys');
  if (!data) return;
  const passkeys = data.passkeys || [];
  state.passkeyCount = passkeys.length;
  const list = $('passkey-list');
  list.replaceChildren(...passkeys.map((p) => passkeyItem(p, errorEl)));
  if (passkeys.length === 0) {
    list.append(emptyItem('No passkeys yet. Add one to sign in with your fingerprint, face or screen lock.', 'passkey-empty'));
  }
  clearLoadError(errorEl);
  // Tell the authenticator which passkeys the account still accepts, unless a passkey was being
  // added while this list was fetched (it would not be on it yet).
  if (epoch === state.passkeyEpoch && epoch % 2 === 0) signalAcceptedCredentials(passkeys);
});

// One passkey's row.
function passkeyItem(p, errorEl) {
  const label = p.label || p.authenticator || 'Passkey';
  const maker = p.authenticator || 'Passkey';
  const meta = metaLine([
    maker === label ? null : maker,
    ['Added ', timeElement(p.created_at, false)],
    p.last_used_at ? ['Last used ', timeElement(p.last_used_at, true)] : 'Never used',
  ]);
  const badges = p.backed_up ? [badge('synced', 'synced')] : [];
  return managedItem({
    kind: 'passkey', id: p.id, label, icon: 'passkey', badges, meta, noun: 'the passkey', section: $('passkeys-section'), errorEl,
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
}

export async function addPasskey() {
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
