// Loaders tied to one signed-in render of the page.

import { ApiError } from './errors.js';
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
