// Hosts the browser really needs beyond our origin, per configuration. Used by astro.config.mjs
// (the page CSP) and src/server/main.ts (the header CSP), so the two never disagree.
/** @param {Record<string, string | undefined>} env */
export function cspHosts(env) {
  const firebaseReal = Boolean(env.PUBLIC_FIREBASE_API_KEY) && !env.FIREBASE_AUTH_EMULATOR_HOST;
  const emulator = `http://${env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099'}`;
  const stripe = Boolean(env.PUBLIC_STRIPE_PUBLISHABLE_KEY);
  const connect = [];
  const script = [];
  const frame = [];
  const img = [];
  if (firebaseReal) {
    connect.push('https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com');
    script.push('https://apis.google.com');
    frame.push(`https://${env.PUBLIC_FIREBASE_AUTH_DOMAIN ?? '*.firebaseapp.com'}`);
  } else {
    connect.push(emulator);
  }
  if (stripe) {
    connect.push('https://api.stripe.com');
    script.push('https://js.stripe.com');
    frame.push('https://js.stripe.com', 'https://hooks.stripe.com');
  }
  if (env.IMGBB_API_KEY) img.push('https://i.ibb.co');
  return { connect, script, frame, img };
}
