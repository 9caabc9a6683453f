// Every answer against its contract (issue 29): with config.checkResponses (on in tests), an answer whose
// status the contract does not declare, or whose body its schema refuses, becomes a 500 naming the
// problem, so the API suite fails loudly wherever a route drifts from its contract. Without it (a shop),
// answers go out as they are.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { accountContract } from '../../src/lib/contracts/account';
import { settingsContract } from '../../src/lib/contracts/settings';
import { toolsContract } from '../../src/lib/contracts/tools';
import { get } from '../../src/lib/contracts/route';
import { emailParams, idParams } from '../../src/lib/contracts/shared';
import { usersContract } from '../../src/lib/contracts/users';
import { anyone } from '../../src/server/auth/guards';
import { contractRouter } from '../../src/server/http/contract-router';
import { onError } from '../../src/server/http/errors';
import { conflict, notFound } from '../../src/server/errors';
import type { AppEnv } from '../../src/server/types';

const SETTINGS = { deliveryFlat: 5, freeDeliveryOver: null, vatRate: 15, pricesIncludeVat: false };

/** An app of one route: the contract, answered by `answer`. */
function appOf(check: boolean, bind: (router: ReturnType<typeof contractRouter>) => ReturnType<typeof contractRouter>) {
  const router = bind(contractRouter({ config: { checkResponses: check } } as never));
  return new Hono<AppEnv>().route('/api', router.app).onError(onError);
}
const read = async (app: Hono<AppEnv>, url: string) => {
  const res = await app.request(url);
  return { status: res.status, data: (await res.json()) as { error?: { code: string; message: string } } };
};

describe('answers checked against their contracts', () => {
  it('passes an answer that matches, and a refusal the contract declares', async () => {
    const app = appOf(true, (r) =>
      r
        .on(settingsContract.get, anyone, () => SETTINGS)
        .on(toolsContract.get, anyone, () => {
          throw notFound('Tool');
        }),
    );
    expect(await read(app, '/api/settings')).toEqual({ status: 200, data: SETTINGS });
    expect(await read(app, `/api/tools/${'0'.repeat(24)}`)).toMatchObject({
      status: 404,
      data: { error: { code: 'not_found' } },
    });
  });

  it.each([
    ['a field of the wrong type', { ...SETTINGS, vatRate: '15%' }, 'vatRate'],
    ['a field missing', { deliveryFlat: 5, vatRate: 15, pricesIncludeVat: false }, 'freeDeliveryOver'],
    ['a field the contract does not name', { ...SETTINGS, secret: 'x' }, 'secret'],
  ])('turns %s into a 500 naming it', async (_name, body, field) => {
    const app = appOf(true, (r) => r.on(settingsContract.get, anyone, () => body as never));
    const res = await read(app, '/api/settings');
    expect(res.status).toBe(500);
    expect(res.data.error?.code).toBe('contract_violation');
    expect(res.data.error?.message).toMatch(/^GET \/settings answered 200 with a body its contract refuses/);
    expect(res.data.error?.message).toContain(field);
  });

  it('turns a status the contract does not declare into a 500', async () => {
    const app = appOf(true, (r) =>
      r.on(settingsContract.get, anyone, () => {
        throw conflict('not a refusal this call gives');
      }),
    );
    const res = await read(app, '/api/settings');
    expect(res).toMatchObject({
      status: 500,
      data: {
        error: {
          code: 'contract_violation',
          message: 'GET /settings answered 409, which its contract does not declare',
        },
      },
    });
  });

  it('checks a streamed JSON file as it ends: a bad one ends in an error', async () => {
    const stream = (text: string) =>
      new Response(new Blob([text]).stream(), { headers: { 'content-type': 'application/json; charset=utf-8' } });
    const app = appOf(true, (r) => r.on(accountContract.export, anyone, () => stream('{"format":"something else"}')));
    const res = await app.request('/api/account/export');
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow(/GET \/account\/export answered 200 with a body its contract refuses/);
  });

  it('costs a shop nothing: without checkResponses, answers go out as the handler made them', async () => {
    const app = appOf(false, (r) =>
      r.on(settingsContract.get, anyone, () => ({ ...SETTINGS, vatRate: '15%' }) as never),
    );
    expect(await read(app, '/api/settings')).toEqual({ status: 200, data: { ...SETTINGS, vatRate: '15%' } });
  });
});

describe('a path parameter and its schema', () => {
  it('a lone {id} or {email} brings its schema: a bad one is a 400, a good one reaches the handler', async () => {
    expect(toolsContract.get.params).toBe(idParams);
    expect(usersContract.signIn.params).toBe(emailParams);
    const app = appOf(false, (r) => r.on(toolsContract.forEdit, anyone, (_c, { params }) => params as never));
    expect((await app.request('/api/tools/not-an-id/edit')).status).toBe(400);
    expect(await read(app, `/api/tools/${'a'.repeat(24)}/edit`)).toEqual({ status: 200, data: { id: 'a'.repeat(24) } });
  });

  it('any other parameter must be declared: a path with one undeclared refuses to load', () => {
    expect(() => get('/things/{name}', 'A thing', { responses: {} })).toThrow(/declare its params/);
    expect(() => get('/a/{id}/b/{part}', 'A part', { responses: {} })).toThrow(/declare its params/);
    expect(get('/a/{id}/b/{part}', 'A part', { params: idParams, responses: {} }).params).toBe(idParams);
  });
});
