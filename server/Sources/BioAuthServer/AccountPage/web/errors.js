// The page's two kinds of failure: an answer of the server, and a prompt the user cancelled.

export class ApiError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message || code);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

export class Cancelled extends Error {
  constructor() { super('cancelled'); this.name = 'Cancelled'; }
}
