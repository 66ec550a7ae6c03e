// The page's state, shared by its modules: one object, changed in place.

export const state = {
  csrf: null,          // WebSession.csrf_token, kept in memory only
  web: null,           // the current WebSession
  rpId: location.hostname,
  autofill: null,      // {controller, done} of the pending conditional-mediation request
  autofillArmed: false, // restart autofill when the username field is focused
  autofillTimer: 0,
  reauth: null,        // {resolve, reject} of the pending "Confirm it's you" prompt
  renderToken: 0,
  passkeyEpoch: 0,     // changes whenever a passkey is being added, so an older list never signals
  passkeyCount: 0,     // the account's passkeys as last listed (offers them for "Confirm it's you")
};
