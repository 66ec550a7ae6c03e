// Loaders tied to one signed-in render of the page.

import { api } from './api.js';
import { ApiError } from './errors.js';
import { showLoadError } from './messages.js';
import { state } from './state.js';

// Runs a loader only while the same signed-in render is current (a sign-out in between drops it).
export function guarded(loader) {
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

// A section loader's GET of `path`: the answer, or null when it failed (the error shown in
// `errorEl` while the render is current) or the render moved on meanwhile.
export async function fetchSection(current, errorEl, path) {
  let data;
  try {
    data = await api('GET', path);
  } catch (e) {
    if (current()) showLoadError(errorEl, e);
    return null;
  }
  return current() ? data : null;
}
