// Devices: the biometric and PIN keys set up in the mobile apps, renamed and removed here.

import { loadActivity } from './activity.js';
import { api } from './api.js';
import { $ } from './dom.js';
import { metaLine, timeElement } from './format.js';
import { fetchSection, guarded } from './guarded.js';
import { badge, emptyItem } from './items.js';
import { managedItem } from './managed-item.js';
import { clearLoadError } from './messages.js';
import { ATTESTATION_WORDS } from './words.js';

export const loadDevices = guarded(async (current) => {
  const errorEl = $('devices-error');
  const data = await fetchSection(current, errorEl, '/v1/biometric/registrations');
  if (!data) return;
  const registrations = data.registrations || [];
  const list = $('device-list');
  list.replaceChildren(...registrations.map((r) => deviceItem(r, errorEl)));
  if (registrations.length === 0) {
    list.append(emptyItem('No devices yet. Keys you set up in the BioAuth mobile app appear here.', 'device-empty'));
  }
  clearLoadError(errorEl);
});

// What the server found of the key's hardware evidence (none: it was not asked for).
function attestationBadge(attestation) {
  if (!attestation) return null;
  if (attestation.verdict === 'verified') return badge(ATTESTATION_WORDS.verified(attestation.security_level), 'synced');
  const b = badge(ATTESTATION_WORDS[attestation.verdict], attestation.verdict === 'refused' ? 'failure' : 'muted');
  if (attestation.reason) b.title = attestation.reason;
  return b;
}

// One device key's row.
function deviceItem(r, errorEl) {
  const kindWords = r.kind === 'pin' ? 'PIN key' : 'Biometric key';
  const label = r.label || kindWords;
  const meta = metaLine([
    kindWords,
    ['Added ', timeElement(r.created_at, false)],
    r.last_used_at ? ['Last used ', timeElement(r.last_used_at, true)] : 'Never used',
  ]);
  const badges = r.status === 'pending' ? [badge('setup not finished', 'muted')] : [];
  const evidence = attestationBadge(r.attestation);
  if (evidence) badges.push(evidence);
  return managedItem({
    kind: 'device', id: r.id, label, icon: r.kind === 'pin' ? 'pin' : 'biometric', badges, meta,
    noun: r.kind === 'pin' ? 'the PIN key' : 'the device key', section: $('devices-section'), errorEl, statusEl: null,
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
}
