// Firebase Auth on the server: checks ID tokens (PUT /user) and removes deleted users' accounts.
import { serverRefusals, type Config } from '../config.ts';
import { logger } from '../observability/logger.ts';

export interface VerifiedIdentity {
  uid: string;
  email: string;
  name?: string;
  /** Google accounts are verified; password accounts once the verification mail's link was followed. */
  emailVerified: boolean;
  /** When the person last proved who they are (signed in or re-authenticated): the token's auth_time. */
  authTime: Date;
}
export interface Identity {
  /** The identity behind a Firebase ID token, or null when it is invalid or expired. */
  verifyIdToken(idToken: string): Promise<VerifiedIdentity | null>;
  /** Removes the sign-in account, so a deleted user cannot come back by signing in. Throws when it could not (already gone is fine). */
  deleteAccount(uid: string): Promise<void>;
}

export function firebaseIdentity(config: Config): Identity {
  // Defence in depth: even a configuration parsed without the server rules never checks tokens unsafely.
  const unsafe = serverRefusals(config).find(
    (r) => r.variable === 'FIREBASE_AUTH_EMULATOR_HOST' || r.variable === 'HOST',
  );
  if (unsafe) throw new Error(`Invalid configuration: ${unsafe.message}`);
  // firebase-admin reads the emulator host from the environment at call time.
  if (config.firebase.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = config.firebase.emulatorHost;
  // Revocation and disabled-account checks need a real project; the emulator path stays offline.
  const checkRevoked = !config.firebase.emulatorHost;
  const auth = (async () => {
    const { initializeApp, getApps } = await import('firebase-admin/app');
    const { getAuth } = await import('firebase-admin/auth');
    const app = getApps()[0] ?? initializeApp({ projectId: config.firebase.projectId });
    return getAuth(app);
  })();
  return {
    async verifyIdToken(idToken) {
      try {
        const decoded = await (await auth).verifyIdToken(idToken, checkRevoked);
        if (!decoded.email) return null;
        return {
          uid: decoded.uid,
          email: decoded.email.toLowerCase(),
          name: decoded.name as string | undefined,
          emailVerified: decoded.email_verified === true,
          authTime: new Date(decoded.auth_time * 1000),
        };
      } catch (error) {
        logger.debug({ code: (error as { code?: string }).code }, 'ID token rejected');
        return null;
      }
    },
    async deleteAccount(uid) {
      try {
        await (await auth).deleteUser(uid);
      } catch (error) {
        if ((error as { code?: string }).code === 'auth/user-not-found') return;
        throw error;
      }
    },
  };
}
