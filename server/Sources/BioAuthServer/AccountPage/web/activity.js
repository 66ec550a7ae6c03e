// Activity: the account's recent sign-ins and changes, newest first.

import { $ } from './dom.js';
import { timeElement } from './format.js';
import { fetchSection, guarded } from './guarded.js';
import { badge } from './items.js';
import { clearLoadError } from './messages.js';
import { state } from './state.js';
import { AUDIT_WORDS } from './words.js';

export const loadActivity = guarded(async (current) => {
  const errorEl = $('activity-error');
  const data = await fetchSection(current, errorEl, '/v1/audit');
  if (!data) return;
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
