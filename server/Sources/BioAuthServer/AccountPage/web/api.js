// Calls to the server: JSON in and out, the browser session's CSRF token on every change, and a
// failed call as an ApiError.

import { ApiError } from './errors.js';
import { state } from './state.js';

let sessionEnded = () => {};

// What the page does when a call finds the browser's session ended (signed out elsewhere, expired).
export function onSessionEnded(handler) {
  sessionEnded = handler;
}

// `method` on `path`, with `body` as JSON (none on GET, HEAD and DELETE): the answer's JSON, null
// for 204, or an ApiError. A CSRF token the server has renewed is fetched, and the call made once more.
export async function api(method, path, body, retried = false) {
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
      sessionEnded();
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
