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

export async function signAccessToken(secret: Uint8Array<ArrayBuffer>, email: string, now = Date.now(), uid?: string | null): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT(uid ? { uid } : {})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(email)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
    .sign(await hmacKey(secret));
}

/** The token's claims, or null when the token is malformed, forged or expired. */
export async function verifyAccessToken(secret: Uint8Array<ArrayBuffer>, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), { issuer: ISSUER, algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string') return null;
    return { email: payload.sub, uid: typeof payload.uid === 'string' ? payload.uid : null };
  } catch {
    return null;
  }
}
