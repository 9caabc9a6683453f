// Firebase web SDK, loaded only by pages that need auth. Without a Firebase config it talks to
// the local Auth emulator that `npm start` runs.
import { initializeApp } from 'firebase/app';
import { browserLocalPersistence, connectAuthEmulator, indexedDBLocalPersistence, initializeAuth } from 'firebase/auth';

const env = import.meta.env;
export const usingEmulator = !env.PUBLIC_FIREBASE_API_KEY;

const app = initializeApp({
  apiKey: env.PUBLIC_FIREBASE_API_KEY ?? 'demo-api-key',
  authDomain: env.PUBLIC_FIREBASE_AUTH_DOMAIN ?? 'demo-ironcrest.firebaseapp.com',
  projectId: env.PUBLIC_FIREBASE_PROJECT_ID ?? 'demo-ironcrest',
  appId: env.PUBLIC_FIREBASE_APP_ID,
});

// initializeAuth without a popup resolver: getAuth() would load Google's iframe script on every
// page that uses auth; the Google popup passes the resolver itself (src/client/state/session.ts).
export const auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });
if (usingEmulator) {
  connectAuthEmulator(auth, `http://${env.PUBLIC_FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099'}`, {
    disableWarnings: true,
  });
}
