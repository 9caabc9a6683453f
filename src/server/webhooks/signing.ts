// Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of
// random bytes; each delivery carries webhook-id, webhook-timestamp (Unix seconds) and webhook-signature
// `v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the decoded secret>`.
//
// The store must keep each secret to sign with it. It is kept sealed (AES-256-GCM) under a key derived
// from JWT_SECRET, so a copy of the database alone (a dump, a backup file) cannot forge deliveries to a
// shop's ERP; the store's own key stays where the access tokens' key is.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
/** 32 random bytes: Standard Webhooks asks for 24 to 64. */
const SECRET_BYTES = 32;

export const newSecret = (): string => PREFIX + randomBytes(SECRET_BYTES).toString('base64');

/** The `webhook-signature` header's value for one attempt. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface SecretBox {
  seal(secret: string): string;
  /** Throws when the text was sealed under another key (JWT_SECRET changed) or altered. */
  open(sealed: string): string;
}

/** Seals and opens endpoint secrets with a key derived from the store's JWT secret. */
export function secretBox(jwtSecret: Uint8Array): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', jwtSecret, Buffer.alloc(0), 'ironcrest webhook secrets', 32));
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), sealed]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(text) {
      const [version, iv, tag, sealed] = text.split('.');
      if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('the endpoint secret is not readable');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      try {
        return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new Error(
          'the endpoint secret cannot be opened: was JWT_SECRET changed? Delete the endpoint and add it again',
        );
      }
    },
  };
}
