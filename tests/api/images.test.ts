// POST /api/images: admins only, images by content (not by name), size-capped; GET serves the bytes back.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { VARIANT_FORMATS, VARIANT_WIDTHS } from '../../src/lib/image-variants';
import { IMAGE_MAX_BYTES } from '../../src/lib/limits';
import { databaseImageStorage } from '../../src/server/images/storage';
import { ADMIN, ALICE, createTestRuntime, type TestRuntime } from './harness';
import { expectApiError } from './helpers';
import { hugeCanvasPng, tinyPng } from './images.fixtures';

let runtime: TestRuntime;
let admin: string;
let alice: string;
beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
});
afterAll(() => runtime.close());

const form = (bytes: Uint8Array<ArrayBuffer> | string, name: string, type: string) => {
  const f = new FormData();
  f.append('image', new Blob([bytes], { type }), name);
  return f;
};
const upload = (body: FormData, token: string | null = admin) =>
  runtime.request('POST', '/api/images', { token, body });
const stored = () => {
  try {
    return readdirSync(path.join(runtime.deps.config.dataDir, 'uploads')).length;
  } catch {
    return 0;
  }
};
/** Refused with the status, and no file written. */
async function expectRefusedUpload(body: FormData, status: number, token: string | null = admin) {
  const before = stored();
  expectApiError(await upload(body, token), status);
  expect(stored()).toBe(before);
}

const JPEG = new Uint8Array(
  await sharp({ create: { width: 4, height: 3, channels: 3, background: '#f5a524' } })
    .jpeg()
    .toBuffer(),
);
const WEBP = new Uint8Array([
  ...Buffer.from('RIFF'),
  0x1a,
  0,
  0,
  0,
  ...Buffer.from('WEBPVP8L'),
  0x0d,
  0,
  0,
  0,
  0x2f,
  0,
  0,
  0,
  0x10,
  0x07,
  0x10,
  0x11,
  0x11,
  0x88,
  0x88,
  0xfe,
  0x07,
  0,
]);

describe('POST /api/images', () => {
  it('an admin uploads a real PNG: 201 {success, data:{url}}, and the URL serves the same bytes', async () => {
    const png = tinyPng(3, 2);
    const res = await upload(form(png, 'anvil.png', 'image/png'));
    expect(res).toMatchObject({
      status: 201,
      data: { success: true, data: { url: expect.stringMatching(/^\/api\/images\/[0-9a-f]{32}\.png$/) } },
    });
    const app = runtime.app;
    const served = await app.request(res.data.data.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
  });

  it.each([
    ['JPEG', JPEG, 'jpg', 'image/jpeg'],
    ['WebP', WEBP, 'webp', 'image/webp'],
  ])('accepts %s by content', async (_, bytes, ext, type) => {
    const res = await upload(form(new Uint8Array(bytes), `photo.${ext}`, type));
    expect(res.status).toBe(201);
    expect(res.data.data.url.endsWith(`.${ext}`)).toBe(true);
    expect((await runtime.app.request(res.data.data.url)).headers.get('content-type')).toBe(type);
  });

  it('judges by content, not by name: a PNG called notes.txt is stored as a PNG', async () => {
    const res = await upload(form(tinyPng(), 'notes.txt', 'text/plain'));
    expect(res.status).toBe(201);
    expect(res.data.data.url.endsWith('.png')).toBe(true);
  });

  it('refuses a text file (415)', async () => {
    await expectRefusedUpload(form('just some notes', 'notes.txt', 'text/plain'), 415);
  });

  it.each([
    ['text', 'not an image at all'],
    ['HTML', '<html><script>alert(1)</script></html>'],
    ['SVG', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ['a truncated PNG signature', new Uint8Array([0x89, 0x50, 0x4e, 0x47])],
  ])('refuses %s whose name and type claim PNG (415)', async (_, bytes) => {
    await expectRefusedUpload(form(bytes as never, 'photo.png', 'image/png'), 415);
  });

  it.each([
    [
      'a JPEG signature with no picture after it',
      new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]),
    ],
    ['a PNG whose pixels are cut off', tinyPng(64, 64).slice(0, 60)],
    ['a small PNG declaring a 400-megapixel canvas', hugeCanvasPng(20_000, 20_000)],
  ])('refuses %s (415 unreadable_image), storing nothing', async (_, bytes) => {
    const before = stored();
    const res = await upload(form(new Uint8Array(bytes), 'photo.png', 'image/png'));
    expectApiError(res, 415);
    expect(res.data.error.code).toBe('unreadable_image');
    expect(stored()).toBe(before);
  });

  it(`refuses a file over ${IMAGE_MAX_BYTES / 1024 / 1024} MB (413)`, async () => {
    const big = new Uint8Array(IMAGE_MAX_BYTES + 1);
    big.set(tinyPng());
    await expectRefusedUpload(form(big, 'huge.png', 'image/png'), 413);
  });

  it('accepts a file of exactly the limit', async () => {
    const edge = new Uint8Array(IMAGE_MAX_BYTES);
    edge.set(tinyPng());
    expect((await upload(form(edge, 'edge.png', 'image/png'))).status).toBe(201);
  });

  it('refuses a non-admin (403) and an anonymous caller (401), storing nothing', async () => {
    await expectRefusedUpload(form(tinyPng(4, 4), 'a.png', 'image/png'), 403, alice);
    await expectRefusedUpload(form(tinyPng(5, 5), 'a.png', 'image/png'), 401, null);
  });
});

describe('GET /api/images/{name}', () => {
  it.each(['0'.repeat(32) + '.png', 'nope.png', '..%2F..%2Fjwt-secret', 'x'.repeat(300)])(
    'answers 404 for %s',
    async (name) => {
      expectApiError(await runtime.request('GET', `/api/images/${name}`), 404);
    },
  );
});

describe('variants of an upload', () => {
  const cached = (res: Response, name: string) => {
    expect(res.headers.get('etag')).toBe(`"${name}"`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  };

  it('a 1600×1200 upload is stored with every width in AVIF and WebP, 4:3, each served with an ETag and cached for good', async () => {
    const res = await upload(form(tinyPng(1600, 1200), 'big.png', 'image/png'));
    expect(res.status).toBe(201);
    const hash = /([0-9a-f]{32})\.png$/.exec(res.data.data.url)![1];
    for (const width of VARIANT_WIDTHS) {
      for (const format of VARIANT_FORMATS) {
        const name = `${hash}-${width}.${format}`;
        const served = await runtime.app.request(`/api/images/${name}`);
        expect(served.status, name).toBe(200);
        expect(served.headers.get('content-type')).toBe(`image/${format}`);
        cached(served, name);
        const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
        expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
          format: format === 'avif' ? 'heif' : 'webp',
          width,
          height: (width * 3) / 4,
        });
        const again = await runtime.app.request(`/api/images/${name}`, { headers: { 'if-none-match': `"${name}"` } });
        expect(again.status).toBe(304);
        cached(again, name);
      }
    }
  });

  it('a variant wider than the upload is the upload at its own size (never enlarged)', async () => {
    const res = await upload(form(tinyPng(400, 300), 'small.png', 'image/png'));
    const hash = /([0-9a-f]{32})\.png$/.exec(res.data.data.url)![1];
    const served = await runtime.app.request(`/api/images/${hash}-1280.webp`);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(400);
  });

  it('an upload stored before variants existed gets them on first request', async () => {
    const png = tinyPng(700, 525);
    const hash = createHash('sha256').update(png).digest('hex').slice(0, 32);
    mkdirSync(path.join(runtime.deps.config.dataDir, 'uploads'), { recursive: true });
    writeFileSync(path.join(runtime.deps.config.dataDir, 'uploads', `${hash}.png`), png);
    const [a, b] = await Promise.all([
      runtime.app.request(`/api/images/${hash}-640.avif`),
      runtime.app.request(`/api/images/${hash}-360.webp`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await sharp(Buffer.from(await b.arrayBuffer())).metadata()).width).toBe(360);
  });

  it('the database store (several servers) keeps the variants beside the upload', async () => {
    const images = databaseImageStorage(runtime.deps.db);
    const url = await images.save(tinyPng(1000, 750), 'image/png');
    const hash = /([0-9a-f]{32})\.png$/.exec(url)![1];
    const variant = await images.read!(`${hash}-480.avif`);
    expect(variant?.type).toBe('image/avif');
    expect((await sharp(variant!.bytes).metadata()).width).toBe(480);
    expect((await images.read!(`${hash}.png`))?.type).toBe('image/png');
  });

  it.each([
    '0'.repeat(32) + '-640.webp',
    'a'.repeat(32) + '-320.webp',
    'a'.repeat(32) + '-640.png',
    'a'.repeat(32) + '-640.avif',
  ])('answers 404 for %s (no such upload, width or format)', async (name) => {
    expectApiError(await runtime.request('GET', `/api/images/${name}`), 404);
  });
});
