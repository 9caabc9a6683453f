// What the services refuse, in the domain's words. A service throws these and knows nothing of HTTP;
// http/errors.ts is the one place that turns a kind into a status code and the answer's body.

export type RefusalKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'not_possible'
  | 'too_large'
  | 'upstream_failed'
  | 'unavailable';

export class DomainError extends Error {
  // Plain fields, not parameter properties: Node runs this file with type stripping only.
  readonly kind: RefusalKind;
  /** The machine-readable reason the client sees (`error.code`). */
  readonly code: string;
  /** Per-field messages, for a form to show beside its fields. */
  readonly fields?: Record<string, string>;
  constructor(kind: RefusalKind, code: string, message: string, fields?: Record<string, string>) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.fields = fields;
  }
}

/** The input breaks a rule of its shape (a field missing, out of range, a bad cursor). */
export const invalid = (message: string, fields?: Record<string, string>) =>
  new DomainError('invalid', 'bad_request', message, fields);
/** Nobody, or nobody still valid, is signed in. */
export const unauthenticated = (message = 'Please log in again') =>
  new DomainError('unauthenticated', 'unauthorized', message);
/** Signed in, but not allowed to do this. */
export const forbidden = (message = 'You are not allowed to do this', code = 'forbidden') =>
  new DomainError('forbidden', code, message);
export const notFound = (what = 'Resource') => new DomainError('not_found', 'not_found', `${what} not found`);
/** The thing is not in a state that allows this (already paid, already shipped, a name taken). */
export const conflict = (message: string, code = 'conflict') => new DomainError('conflict', code, message);
/** Well formed, but a business rule says no (not enough stock, a code that has run out). */
export const notPossible = (message: string, fields?: Record<string, string>) =>
  new DomainError('not_possible', 'unprocessable', message, fields);
/** More than the store takes at once (rows of a file, bytes of an upload). */
export const tooLarge = (message: string, fields?: Record<string, string>) =>
  new DomainError('too_large', 'too_large', message, fields);
/** A provider we depend on (payments, identity) failed to do its part. */
export const upstreamFailed = (code: string, message: string) => new DomainError('upstream_failed', code, message);
/** Not now: try again in a moment. */
export const unavailable = (code: string, message: string) => new DomainError('unavailable', code, message);
