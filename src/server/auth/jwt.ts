// Our own short-lived access token. It names the user and the Firebase account it was issued to;
// the role is read from the database per request.
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_S = 3600;
const ISSUER = 'ironcrest-store';

// Handed raw bytes, jose imports a WebCrypto key on every call (a fifth of a signed-in request's
// CPU in a purchase rush); the key of each secret is imported once instead.
const keys = new WeakMap<Uint8Array<ArrayBuffer>, Promise<CryptoKey>>();
function hmacKey(secret: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}

export interface AccessClaims {
  email: string;
  /** The Firebase uid the token was issued to (null only for tokens made without one, e.g. in tests). */
  uid: string | null;
}

// Tokens known to be good (signed here, or verified once) until they expire, so a signed-in request
// skips the signature check it already passed: WebCrypto's HMAC verify costs ~100 µs of JS a call, a
// sixth of a booking in a rush. Only the signature is skipped: the user's row is read every time.
// Kept per secret, the oldest dropped past MAX_KNOWN (a few MB at most).
const MAX_KNOWN = 10_000;
const knownTokens = new WeakMap<Uint8Array<ArrayBuffer>, Map<string, AccessClaims & { exp: number }>>();
function known(secret: Uint8Array<ArrayBuffer>): Map<string, AccessClaims & { exp: number }> {
  let tokens = knownTokens.get(secret);
  if (!tokens) knownTokens.set(secret, (tokens = new Map()));
  return tokens;
}
function remember(secret: Uint8Array<ArrayBuffer>, token: string, claims: AccessClaims, exp: number) {
  const tokens = known(secret);
  if (tokens.size >= MAX_KNOWN) tokens.delete(tokens.keys().next().value!);
  tokens.set(token, { ...claims, exp });
}

export async function signAccessToken(
  secret: Uint8Array<ArrayBuffer>,
  email: string,
  now = Date.now(),
  uid?: string | null,
): Promise<string> {
  const iat = Math.floor(now / 1000);
  const token = await new SignJWT(uid ? { uid } : {})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(email)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
    .sign(await hmacKey(secret));
  remember(secret, token, { email, uid: uid ?? null }, iat + ACCESS_TOKEN_TTL_S);
  return token;
}

/** The token's claims, or null when the token is malformed, forged or expired. */
export async function verifyAccessToken(secret: Uint8Array<ArrayBuffer>, token: string): Promise<AccessClaims | null> {
  const seen = known(secret).get(token);
  if (seen) {
    if (seen.exp > Date.now() / 1000) return { email: seen.email, uid: seen.uid };
    known(secret).delete(token);
  }
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), { issuer: ISSUER, algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
    const claims = { email: payload.sub, uid: typeof payload.uid === 'string' ? payload.uid : null };
    remember(secret, token, claims, payload.exp);
    return claims;
  } catch {
    return null;
  }
}
