// Issue 23 against the built store: moderation and deletion leave every page at once, every spelling
// of a path has one answer, and every HTML answer (errors included) carries a hashed script policy.
// Paths go over raw sockets where fetch would normalise them.
import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { messages } from '../../src/lib/messages';
import { FIRST_WINDOW, measureHtml, responseBytes } from '../../scripts/bench/pages';
import { adminApiToken, liveTools, pageErrors } from './fixtures';

test.describe.configure({ mode: 'serial' });

let token: string;
let origin: string;
test.beforeAll(async ({ request, baseURL }) => {
  token = await adminApiToken(request);
  origin = new URL(baseURL!).origin;
});
const bearer = () => ({ authorization: `Bearer ${token}`, origin });

/** One request exactly as written, over its own connection. */
function raw(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<{ status: number; head: string; body: string }> {
  const lines = [`${method} ${target} HTTP/1.1`, `Host: localhost:${E2E_PORT}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return new Promise((resolve, reject) => {
    const socket = connect(E2E_PORT, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.split(' ')[1]), head: text.slice(0, at), body: text.slice(at + 4) });
    });
    socket.write(lines.join('\r\n') + '\r\n\r\n' + body);
  });
}

/** Follows redirects the way a browser would, from a raw first request; returns the final status and body. */
async function finalAnswer(target: string): Promise<{ status: number; body: string; hops: number }> {
  let answer = await raw('GET', target);
  let hops = 0;
  while (answer.status >= 300 && answer.status < 400 && hops < 5) {
    const location = /\r\nlocation: ([^\r]+)/i.exec(answer.head)![1];
    answer = await raw('GET', new URL(location, origin).pathname);
    hops++;
  }
  return { ...answer, hops };
}

test('a review an admin hides leaves the home page HTML at once, and comes back when shown', async ({ request }) => {
  const review = await request.post('/api/review', {
    headers: bearer(),
    data: { name: 'Moderated', Messege: `Hide me ${Date.now()}`, ratings: 2 },
  });
  expect(review.status(), await review.text()).toBe(201);
  const { insertedId: id } = (await review.json()) as { insertedId: string };
  const text = (await (await request.get(`/api/reviews?limit=5&pageNumber=0`)).json()).services.find(
    (r: { _id: string }) => r._id === id,
  ).Messege;
  const home = async () => (await request.get('/')).text();
  expect(await home()).toContain(text);
  // Twice, so the server answers from its kept copy, which the hide must drop.
  expect(await home()).toContain(text);

  const hidden = await request.put(`/api/reviews/hide/${id}`, { headers: bearer(), data: { hidden: true } });
  expect(hidden.status()).toBe(200);
  const hiddenAt = Date.now();
  await expect.poll(home, { timeout: 5000, intervals: [100, 250, 500] }).not.toContain(text);
  expect(Date.now() - hiddenAt).toBeLessThan(2000);

  expect((await request.put(`/api/reviews/hide/${id}`, { headers: bearer(), data: { hidden: false } })).status()).toBe(
    200,
  );
  await expect.poll(home, { timeout: 5000 }).toContain(text);
});

test('a deleted tool is gone from its page in every spelling, and from the home page', async ({ request }) => {
  const name = `Spelling Test Hammer ${Date.now()}`;
  const added = await request.post('/api/tools', {
    headers: bearer(),
    data: {
      name,
      description: 'Added and deleted by the spelling test.',
      price: 12.5,
      minimumOrderQuantity: 1,
      availableQuantity: 9,
      img: '/images/tools/claw-hammer.svg',
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  const { insertedId: id } = (await added.json()) as { insertedId: string };
  const spellings = [
    `/tools/${id}`,
    `/tools/${id}/`,
    `/tools/${id}/index.html`,
    `/tools//${id}`,
    `//tools/${id}`,
    `/tools/./${id}`,
    `/x/../tools/${id}`,
    `/tools/${id}?x=1`,
  ];
  for (const target of spellings) {
    const answer = await finalAnswer(target);
    expect(answer.status, target).toBe(200);
    expect(answer.body, target).toContain(name);
  }
  expect(await (await request.get('/')).text()).toContain(name);

  expect((await request.delete(`/api/tools/dlt/${id}`, { headers: bearer() })).status()).toBe(200);
  for (const target of spellings) {
    const answer = await finalAnswer(target);
    expect(answer.status, target).toBe(404);
    expect(answer.body, target).not.toContain(name);
    expect(answer.body, target).toContain(messages.notFound);
  }
  expect(await (await request.get('/')).text()).not.toContain(name);
});

test('one door into the API: a socket cannot reach it through another spelling', async () => {
  const body = JSON.stringify({ name: 'Visitor', email: 'visitor@example.com', message: 'Hello' });
  for (const target of [
    '/x/../api/contact',
    '/api//contact',
    '/api/./contact',
    '/api%2Fcontact',
    '/x/%2e%2e/api/contact',
  ]) {
    const answer = await raw('POST', target, { 'Content-Type': 'application/json', Origin: origin }, body);
    expect(answer.status, target).toBe(400);
  }
  const read = await raw('GET', '/x/../api/tools');
  expect(read.status).toBe(308);
  expect(read.head).toMatch(/\r\nlocation: \/api\/tools\r\n/i);
});

test('every HTML answer, errors included, carries a hashed script policy and forbids framing', async ({
  page,
  request,
}) => {
  const tool = (await liveTools(request))[0];
  for (const path of [
    '/',
    `/tools/${tool._id}`,
    '/tools',
    '/blogs',
    '/login',
    '/no-such-page',
    '/blogs/missing',
    '/tools/000000000000000000000000',
  ]) {
    const response = await request.get(path);
    const policy = response.headers()['content-security-policy'] ?? '';
    const scripts = /script-src ([^;]*)/.exec(policy)?.[1] ?? '';
    expect(scripts, path).not.toContain("'unsafe-inline'");
    expect(scripts, path).toMatch(/'sha256-/);
    expect(policy, path).toContain("frame-ancestors 'none'");
    if (path.includes('missing') || path.includes('no-such') || path.includes('0000'))
      expect(response.status(), path).toBe(404);
  }
  // The 404 page runs under that policy without a refusal.
  const errors = pageErrors(page);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.notFound);
  expect(errors).toEqual([]);
});

test('pages rendered from live data keep the page budgets: JavaScript before interaction and the first round trip', async ({
  request,
}) => {
  const tool = (await liveTools(request))[0];
  const clientDir = `${process.env.E2E_DIST_DIR ?? 'dist-e2e'}/client`;
  for (const [path, jsBudget] of [
    ['/', 20 * 1024],
    [`/tools/${tool._id}`, undefined],
  ] as const) {
    const plain = await request.get(path, { headers: { 'accept-encoding': 'identity' } });
    const compressed = await request.get(path, { headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers()['content-encoding'], path).toBe('br');
    const answer = responseBytes(
      compressed.status(),
      compressed.statusText(),
      compressed.headersArray(),
      Number(compressed.headers()['content-length']),
    );
    expect(answer, `${path}: headers and brotli HTML`).toBeLessThanOrEqual(FIRST_WINDOW);
    const { bytes } = measureHtml(clientDir, await plain.text());
    if (jsBudget) expect(bytes, `${path} JavaScript before interaction`).toBeLessThanOrEqual(jsBudget);
  }
});
