import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, createTestRuntime, type TestRuntime } from './harness';

let runtime: TestRuntime;
beforeAll(async () => {
  runtime = await createTestRuntime();
});
afterAll(() => runtime.close());

describe('API smoke', () => {
  it('answers health once the database is reachable', async () => {
    expect(await runtime.request('GET', '/api/health')).toMatchObject({ status: 200, data: { ok: true } });
  });
  it('lists the seeded tools with the spec field names', async () => {
    const { status, data } = await runtime.request('GET', '/api/tools');
    expect(status).toBe(200);
    expect(data.length).toBeGreaterThanOrEqual(12);
    expect(Object.keys(data[0]).sort()).toEqual([
      '_id',
      'availableQuantity',
      'description',
      'img',
      'minimumOrderQuantity',
      'name',
      'packSize',
      'price',
      'priceBreaks',
      'quoteAbove',
    ]);
  });
  it('exchanges an emulator ID token for an access token', async () => {
    const token = await runtime.tokenFor(ALICE);
    expect(await runtime.request('GET', `/api/admin/${ALICE}`, { token })).toMatchObject({
      status: 200,
      data: { admin: false },
    });
  });
  it('answers unknown API routes with a JSON 404', async () => {
    expect(await runtime.request('GET', '/api/nope')).toMatchObject({
      status: 404,
      data: { error: { code: 'not_found' } },
    });
  });
});
