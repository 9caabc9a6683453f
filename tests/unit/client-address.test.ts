import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, forwardedHttps } from '../../src/server/http/client-address';

const req = (remote: string, xff?: string, proto?: string) =>
  ({
    socket: { remoteAddress: remote },
    headers: { 'x-forwarded-for': xff, 'x-forwarded-proto': proto },
  }) as unknown as IncomingMessage;

describe('clientAddress (TRUST_PROXY hops)', () => {
  it('0 hops: the socket peer, whatever X-Forwarded-For says', () => {
    expect(clientAddress(req('::ffff:10.0.0.9', '1.2.3.4'), 0)).toBe('10.0.0.9');
  });
  it('1 hop (nginx): the address nginx saw, not what the client wrote before it', () => {
    expect(clientAddress(req('127.0.0.1', '203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(clientAddress(req('127.0.0.1', 'forged, 203.0.113.7'), 1)).toBe('203.0.113.7');
  });
  it('2 hops (CDN then nginx): the address the CDN saw', () => {
    expect(clientAddress(req('127.0.0.1', 'forged, 198.51.100.2, 10.1.1.1'), 2)).toBe('198.51.100.2');
  });
  it('more hops than entries: the furthest known address', () => {
    expect(clientAddress(req('127.0.0.1', '203.0.113.7'), 3)).toBe('203.0.113.7');
    expect(clientAddress(req('127.0.0.1'), 1)).toBe('127.0.0.1');
  });
  it('X-Forwarded-Proto counts only from a trusted proxy', () => {
    expect(forwardedHttps(req('127.0.0.1', undefined, 'https'), 0)).toBe(false);
    expect(forwardedHttps(req('127.0.0.1', undefined, 'https'), 1)).toBe(true);
  });
});
