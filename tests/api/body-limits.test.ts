// JSON bodies over 64 kB are refused with 413 without being read: a declared Content-Length over the
// limit is refused before any byte is read, and a body without one (chunked) is read only until it
// passes the limit, then the stream is cancelled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from '../../src/lib/limits';
import { ADMIN, ALICE, createTestRuntime, type TestRuntime } from './harness';
import { expectApiError } from './helpers';

let runtime: TestRuntime;
let alice: string;
let ip = 0;
beforeAll(async () => {
  runtime = await createTestRuntime();
  alice = await runtime.tokenFor(ALICE);
});
afterAll(() => runtime.close());

/** A body that never ends, counting what the server pulled and whether it let go. */
function endless() {
  const seen = { bytes: 0, cancelled: false };
  const chunk = new TextEncoder().encode(`{"pad":"${'p'.repeat(16_000)}`);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      seen.bytes += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

async function send(path: string, body: BodyInit, headers: Record<string, string>, token?: string) {
  const request = new Request(`http://store.test${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    duplex: 'half',
  } as RequestInit);
  const response = await runtime.app.request(request, undefined, { clientAddress: `limits-${++ip}` });
  return { status: response.status, data: await response.json() };
}

describe.each([
  ['POST /contact (anonymous)', '/api/contact', undefined],
  ['POST /review (signed in)', '/api/review', () => alice],
] as const)('%s', (_name, path, token) => {
  it('refuses a declared Content-Length over 64 kB with 413 before reading the body', async () => {
    const { stream, seen } = endless();
    const started = performance.now();
    const res = await send(path, stream, { 'content-length': String(100 * 1024 * 1024) }, token?.());
    expectApiError(res, 413);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(seen.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('refuses a chunked body that never ends with 413 once it passes 64 kB, and stops reading it', async () => {
    const { stream, seen } = endless();
    const started = performance.now();
    const res = await send(path, stream, {}, token?.());
    expectApiError(res, 413);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(seen.cancelled).toBe(true);
    expect(seen.bytes).toBeLessThan(64 * 1024 + 4 * 16_010);
  });

  it('still reads a body just under the limit sent without a length', async () => {
    const json = JSON.stringify({
      name: 'Visitor',
      email: 'visitor@example.com',
      message: 'Hi',
      Messege: 'Hi',
      ratings: 4,
      pad: 'p'.repeat(60_000),
    });
    const bytes = new TextEncoder().encode(json);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096));
        controller.close();
      },
    });
    const res = await send(path, stream, {}, token?.());
    expect(res.status, JSON.stringify(res.data)).toBe(201);
  });
});

describe('POST /images (admin)', () => {
  const multipart = { 'content-type': 'multipart/form-data; boundary=xyz' };
  it('refuses a multipart body without a length once it passes the limit, and stops reading it', async () => {
    const { stream, seen } = endless();
    const res = await send('/api/images', stream, multipart, await runtime.tokenFor(ADMIN));
    expectApiError(res, 413);
    expect(seen.cancelled).toBe(true);
    expect(seen.bytes).toBeLessThan(IMAGE_MAX_BYTES + 64 * 1024 + 4 * 16_010);
  });
  it('refuses a declared length over the limit before reading', async () => {
    const { stream, seen } = endless();
    const res = await send(
      '/api/images',
      stream,
      { ...multipart, 'content-length': String(IMAGE_MAX_BYTES * 10) },
      await runtime.tokenFor(ADMIN),
    );
    expectApiError(res, 413);
    expect(seen.bytes).toBeLessThanOrEqual(64 * 1024);
  });
});
