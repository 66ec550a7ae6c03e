// Sessions: where the account is signed in, ending one, and signing out everywhere else.

import { loadActivity } from './activity.js';
import { api } from './api.js';
import { $, setBusy } from './dom.js';
import { ApiError, Cancelled } from './errors.js';
import { dateFormat, metaLine, timeElement } from './format.js';
import { fetchSection, guarded } from './guarded.js';
import { badge, setIcon } from './items.js';
import { clearLoadError, clearMessage, showError, showText } from './messages.js';
import { withReauth } from './reauth.js';
import { state } from './state.js';
import { METHOD_WORDS } from './words.js';

export const loadSessions = guarded(async (current) => {
  const errorEl = $('sessions-error');
  const data = await fetchSection(current, errorEl, '/v1/sessions');
  if (!data) return;
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

// One session's row; every session but this browser's can be ended from it.
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
  const meta = document.createElement('p');
  meta.className = 'item-meta';
  meta.append(metaLine([
    ['Started ', timeElement(session.created_at, false)],
    session.authenticated_at && session.authenticated_at !== session.created_at
      ? ['Confirmed ', timeElement(session.authenticated_at, true)] : null,
    ['Expires ', timeElement(session.expires_at, false)],
  ]));
  main.append(sessionTitle(session, isCurrent), meta);
  row.append(icon, main);
  const itemError = document.createElement('p');
  itemError.className = 'form-error item-error';
  itemError.setAttribute('role', 'alert');
  if (!isCurrent) row.append(endAction(session, itemError));
  li.append(row, itemError);
  return li;
}

// "Signed in with …", and "This browser" on the current session.
function sessionTitle(session, isCurrent) {
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
  return title;
}

// The "End" button of another session (a session already gone just leaves the list).
function endAction(session, itemError) {
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
  return actions;
}

export async function signOutOthers() {
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
