// Small parts of the lists' rows: badges, an empty list's row, icons.

export function badge(text, kind) {
  const el = document.createElement('span');
  el.className = `badge${kind ? ` badge-${kind}` : ''}`;
  el.textContent = text;
  return el;
}

export function emptyItem(text, testid) {
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
  confirmation: '<svg viewBox="0 0 24 24" width="22" height="22" focusable="false"><rect x="3" y="5" width="18" height="14" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M3 10h18" fill="none" stroke="currentColor" stroke-width="2"/><path d="M7 15h4" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
  session: '<svg viewBox="0 0 24 24" width="22" height="22" focusable="false"><rect x="3" y="4" width="18" height="12" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M8 20h8M12 16v4" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
};

export function setIcon(container, name) {
  // Static, trusted SVG markup from ICONS above (never server data).
  container.innerHTML = ICONS[name] || '';
}
