// Messages next to the controls: an error in words, a status line, and clearing them.

import { ApiError } from './errors.js';
import { ERROR_WORDS, WEBAUTHN_WORDS } from './words.js';

function minutesText(seconds) {
  if (!Number.isFinite(seconds) || seconds <= 0) return 'a little while';
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

// An error in words, for the element next to the form that caused it. `overrides` gives
// context-specific words per code (e.g. invalid_credentials on "current password").
export function wordsFor(error, overrides = {}) {
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

export function showError(el, error, overrides) {
  if (!el) return;
  el.textContent = wordsFor(error, overrides);
  el.dataset.code = errorCode(error);
  delete el.dataset.load;
}

// A list that failed to load says so; the next successful load takes only that message away
// (not an error that an action put there).
export function showLoadError(el, error) {
  showError(el, error);
  el.dataset.load = 'true';
}

export function clearLoadError(el) {
  if (el && el.dataset.load) clearMessage(el);
}

export function showText(el, text) {
  el.textContent = text;
  delete el.dataset.code;
}

export function clearMessage(el) {
  if (!el) return;
  el.textContent = '';
  delete el.dataset.code;
  delete el.dataset.load;
}
