// The return path after sign-in: only this site's paths, whatever the ?from= value tries.
import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from '../../src/lib/redirect';

const ORIGIN = 'https://shop.example.com';

describe('safeRedirectPath', () => {
  it.each([
    ['/dashboard/myorders', '/dashboard/myorders'],
    ['/tools/abc?quantity=3#reviews', '/tools/abc?quantity=3#reviews'],
    ['/', '/'],
    ['/a/../dashboard', '/dashboard'],
    ['/%5Cevil.example', '/%5Cevil.example'],
  ])('keeps a path on this site: %s', (from, expected) => {
    expect(safeRedirectPath(from, ORIGIN)).toBe(expected);
  });

  it.each([
    // As URLSearchParams hands them over (decoded) from ?from=/%5Cevil.example, //evil.example, /\evil.example, /%09/evil.example …
    '/\\evil.example',
    '//evil.example',
    '///evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/\u0000/evil.example',
    'https://evil.example',
    'http://shop.example.com.evil.example/',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'evil.example',
    ' /dashboard',
    '\\\\evil.example',
    '',
    null,
    undefined,
  ])('sends anything else home: %j', (from) => {
    expect(safeRedirectPath(from, ORIGIN)).toBe('/');
  });

  it('what it returns never leaves the origin when the browser resolves it', () => {
    for (const from of [
      '/\\evil.example',
      '//evil.example',
      '/\t/evil.example',
      'https://evil.example',
      '/ok?next=//evil.example',
    ]) {
      expect(new URL(safeRedirectPath(from, ORIGIN), ORIGIN).origin).toBe(ORIGIN);
    }
  });
});
