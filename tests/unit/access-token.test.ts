// The access token's memory of good tokens must never accept what the signature check would refuse.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_S, signAccessToken, verifyAccessToken } from '../../src/server/auth/jwt';

const secret = () => new TextEncoder().encode('s'.repeat(48));

describe('access tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('accepts a token it issued, again and again, with its claims', async () => {
    const key = secret();
    const token = await signAccessToken(key, 'alice@example.com', Date.now(), 'uid-1');
    for (let i = 0; i < 3; i++)
      expect(await verifyAccessToken(key, token)).toEqual({ email: 'alice@example.com', uid: 'uid-1' });
  });

  it('refuses a remembered token once it has expired', async () => {
    vi.useFakeTimers();
    const key = secret();
    const token = await signAccessToken(key, 'alice@example.com', Date.now(), 'uid-1');
    expect(await verifyAccessToken(key, token)).not.toBeNull();
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_S + 1) * 1000);
    expect(await verifyAccessToken(key, token)).toBeNull();
  });

  it('refuses a tampered copy of a known token, and a known token under another secret', async () => {
    const key = secret();
    const token = await signAccessToken(key, 'alice@example.com', Date.now(), 'uid-1');
    expect(await verifyAccessToken(key, token)).not.toBeNull();
    const [head, payload, signature] = token.split('.');
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    expect(await verifyAccessToken(key, `${head}.${payload}.${flipped}`)).toBeNull();
    const otherClaims = Buffer.from(
      JSON.stringify({ sub: 'admin@example.com', iss: 'ironcrest-store', exp: 2e9 }),
    ).toString('base64url');
    expect(await verifyAccessToken(key, `${head}.${otherClaims}.${signature}`)).toBeNull();
    expect(await verifyAccessToken(new TextEncoder().encode('t'.repeat(48)), token)).toBeNull();
  });

  it('refuses a token signed with an expiry already past, even though it made it', async () => {
    const key = secret();
    const token = await signAccessToken(key, 'alice@example.com', Date.now() - 2 * ACCESS_TOKEN_TTL_S * 1000);
    expect(await verifyAccessToken(key, token)).toBeNull();
  });
});
