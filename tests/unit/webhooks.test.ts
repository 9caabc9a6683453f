// Outgoing webhooks' small parts: the Standard Webhooks signature (its published test vector), the
// sealed secrets, which addresses are private, the https rule and the retry schedule.
import { describe, expect, it } from 'vitest';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_WAITS_MS } from '../../src/lib/webhooks';
import { checkEndpointUrl, isPrivateAddress } from '../../src/server/webhooks/address-guard';
import { newSecret, secretBox, sign } from '../../src/server/webhooks/signing';
import { retryWaitMs } from '../../src/server/webhooks/webhook-worker';
import { verify } from '../api/webhook-receiver';

describe('signatures', () => {
  it('match the Standard Webhooks test vector', () => {
    expect(
      sign(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verify with a fresh secret; an altered body, id, timestamp or another secret does not', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const request = {
      id: 'msg_1',
      timestamp,
      body: '{"type":"order.paid"}',
      signature: sign(secret, 'msg_1', Number(timestamp), '{"type":"order.paid"}'),
    };
    expect(verify(secret, request)).toBe(true);
    expect(verify(secret, { ...request, body: '{"type":"order.paid" }' })).toBe(false);
    expect(verify(secret, { ...request, id: 'msg_2' })).toBe(false);
    expect(verify(secret, { ...request, timestamp: String(Number(timestamp) + 1) })).toBe(false);
    expect(verify(newSecret(), request)).toBe(false);
  });
});

describe('sealed secrets', () => {
  it('open under the same JWT secret only', () => {
    const box = secretBox(new TextEncoder().encode('a'.repeat(48)));
    const secret = newSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.seal(secret)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(secret);
    expect(() => secretBox(new TextEncoder().encode('b'.repeat(48))).open(sealed)).toThrow(/JWT_SECRET/);
    const [v, iv, tag, body] = sealed.split('.');
    expect(() => box.open([v, iv, tag, body.slice(1) + 'A'].join('.'))).toThrow();
  });
});

describe('addresses', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.20.30.40', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.0.1', true],
    ['169.254.169.254', true],
    ['100.64.1.1', true],
    ['0.0.0.0', true],
    ['255.255.255.255', true],
    ['224.0.0.1', true],
    ['::1', true],
    ['::', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['fe80::1', true],
    ['fd12:3456::1', true],
    ['ff02::1', true],
    ['64:ff9b::a00:1', true],
    ['not an address', true],
    ['93.184.216.34', false],
    ['8.8.8.8', false],
    ['2606:4700:4700::1111', false],
    ['::ffff:93.184.216.34', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  it('in production an endpoint must use https, even with WEBHOOK_ALLOW_PRIVATE', async () => {
    const production = { production: true, allowPrivate: true };
    await expect(checkEndpointUrl('http://erp.example.com/hooks', production)).rejects.toMatchObject({
      kind: 'not_possible',
      message: 'The endpoint must use https:// (deliveries carry order details)',
    });
    await expect(checkEndpointUrl('https://erp.example.com/hooks', production)).resolves.toBeUndefined();
    await expect(
      checkEndpointUrl('http://127.0.0.1:9/hooks', { production: false, allowPrivate: true }),
    ).resolves.toBeUndefined();
  });
});

describe('the retry schedule', () => {
  it('retries within seconds first, then for more than a day, each wait stretched by 0–20 %', () => {
    expect(WEBHOOK_RETRY_WAITS_MS.slice(0, 3)).toEqual([5000, 30_000, 120_000]);
    const total = WEBHOOK_RETRY_WAITS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(24 * 3600_000);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(WEBHOOK_RETRY_WAITS_MS.length + 1);
    WEBHOOK_RETRY_WAITS_MS.forEach((wait, i) => {
      expect(retryWaitMs(i + 1, () => 0)).toBe(wait);
      expect(retryWaitMs(i + 1, () => 1)).toBe(wait * 1.2);
    });
  });
});
