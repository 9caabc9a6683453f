// Our own short-lived access token. It names the user only: the role is read from the database per request.
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_S = 3600;
const ISSUER = 'ironcrest-store';

export async function signAccessToken(secret: Uint8Array, email: string, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(email)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
    .sign(secret);
}

/** The token's email, or null when the token is malformed, forged or expired. */
export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, algorithms: ['HS256'] });
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}
