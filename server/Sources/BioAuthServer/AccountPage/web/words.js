// The page's words: errors, passkey failures, sign-in methods and the activity list's events.

export const ERROR_WORDS = {
  invalid_request: 'Something in the form was not accepted. Check it and try again.',
  invalid_username: 'That username cannot be used. Choose 3 to 64 characters: letters, digits, dots, dashes and underscores.',
  invalid_password: 'Passwords must be 8 to 256 characters long.',
  username_taken: 'That username is already taken. Choose another one.',
  invalid_credentials: 'The username or password is not right.',
  rate_limited: 'Too many requests. Wait a moment and try again.',
  invalid_session: 'You are signed out. Sign in again.',
  reauthentication_required: 'For your security, confirm it\'s you with your password or a passkey, and try again.',
  password_change_required: 'Your account is waiting for a new password. Sign in with the one-time password the support desk gave you.',
  password_locked: 'Your password is locked after too many wrong tries. Contact the support desk to unlock it.',
  locked: 'Too many wrong tries. Wait a while and try again.',
  challenge_invalid: 'The request expired before it was finished. Try again.',
  passkey_unknown: 'This passkey is not registered with your account any more. Sign in another way, or use a different passkey.',
  passkey_invalid: 'The passkey\'s answer could not be verified, so it was refused. Try again, or sign in another way.',
  user_verification_required: 'Your device did not confirm it was you (fingerprint, face or screen lock). Try again.',
  duplicate_registration: 'This device already has a passkey for your account.',
  attestation_required: 'Passkeys cannot be added here: this site accepts only keys whose secure hardware it can check. Use the app on your phone instead.',
  confirmation_closed: 'This confirmation was already decided, or has expired. The list has been refreshed.',
  csrf_failed: 'This page is out of date. Reload it and try again.',
  not_found: 'That item no longer exists. The list has been refreshed.',
  network: 'Could not reach the server. Check your connection and try again.',
  server: 'Something went wrong on our side. Try again in a moment.',
};

export const WEBAUTHN_WORDS = {
  NotAllowedError: 'The passkey was not used — verification was cancelled or failed.',
  InvalidStateError: 'This device already has a passkey for your account.',
  SecurityError: 'Passkeys cannot be used on this address (the site name does not match).',
  NotSupportedError: 'This browser or device cannot create the kind of passkey this site needs.',
  ConstraintError: 'This device cannot verify you (no fingerprint, face or screen lock is set up).',
  unsupported: 'This browser does not support passkeys. Sign in with your password.',
};

export const METHOD_WORDS = {
  passkey: 'a passkey', password: 'a password', pin: 'a PIN', biometric: 'biometrics',
};

export const ATTESTATION_WORDS = {
  verified: (level) => `key in secure hardware${level ? ` (${level})` : ''}`,
  refused: 'hardware not verified',
  absent: 'no hardware evidence',
};

export const AUDIT_WORDS = {
  'user.created': ['Account created'],
  'password.sign_in': ['Signed in with a password', 'Password sign-in failed'],
  'passkey.sign_in': ['Signed in with a passkey', 'Passkey sign-in failed'],
  'pin.sign_in': ['Signed in with a PIN', 'PIN sign-in failed'],
  'biometric.sign_in': ['Signed in with biometrics', 'Biometric sign-in failed'],
  'passkey.registered': ['Added a passkey', 'Adding a passkey failed'],
  'passkey.renamed': ['Renamed a passkey'],
  'passkey.deleted': ['Removed a passkey'],
  'biometric.registration_verified': ['Set up a device key', 'Setting up a device key failed'],
  'biometric.registration_deleted': ['Removed a device key'],
  'biometric.registration_renamed': ['Renamed a device key'],
  'biometric.key_attestation_refused': ["A device key's hardware evidence was refused"],
  'session.signed_out': ['Signed out'],
  'session.revoked': ['Ended a session'],
  'session.others_revoked': ['Signed out everywhere else'],
  'session.reauthenticated': ['Confirmed it was you', 'Confirming it was you failed'],
  'password.changed': ['Changed the password', 'Changing the password failed'],
  'pin.set': ['Set a PIN', 'Setting a PIN failed'],
  'confirmation.created': ['Asked to confirm a payment or action'],
  'confirmation.approved': ['Approved a confirmation', 'Approving a confirmation failed'],
  'confirmation.declined': ['Declined a confirmation'],
};

export const CONFIRMATION_STATUS_WORDS = {
  approved: 'approved', declined: 'declined', expired: 'expired', blocked: 'blocked: too many failed tries',
};
