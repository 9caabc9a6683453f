// Our own short-lived access token. It names the user and the Firebase account it was issued to;
// the role is read from the database per request.
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_S = 3600;
const ISSUER = 'ironcrest-store';

export interface AccessClaims {
  email: string;
  /** The Firebase uid the token was issued to (null only for tokens made without one, e.g. in tests). */
  uid: string | null;
}

export async function signAccessToken(secret: Uint8Array, email: string, now = Date.now(), uid?: string | null): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT(uid ? { uid } : {})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(email)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
    .sign(secret);
}

/** The token's claims, or null when the token is malformed, forged or expired. */
export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string') return null;
    return { email: payload.sub, uid: typeof payload.uid === 'string' ? payload.uid : null };
  } catch {
    return null;
  }
}
