// Trace and span ids for our tracer (otel.ts): random, as the SDK's own, except that a request's span, which
// the SDK may make after its request ended, takes the trace id the request was already logged with.

/** `bytes` random bytes as hex digits, never all zero (an all-zero id is invalid). */
export function randomId(bytes: 8 | 16): string {
  let id = '';
  for (let i = 0; i < bytes / 4; i++) id += ((Math.random() * 2 ** 32) >>> 0).toString(16).padStart(8, '0');
  return /[^0]/.test(id) ? id : randomId(bytes);
}

/** The SDK's IdGenerator (its tracer provider's `idGenerator`). */
export class RequestIds {
  /** The trace id the next root span takes (the SDK asks for one only for a span without a parent). */
  next: string | undefined;
  generateTraceId(): string {
    const id = this.next ?? randomId(16);
    this.next = undefined;
    return id;
  }
  generateSpanId(): string {
    return randomId(8);
  }
}
