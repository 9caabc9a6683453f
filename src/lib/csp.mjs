// The one source of the Content-Security-Policy: astro.config.mjs gives Astro the page directives
// (it adds each page's script hashes), src/server/main.ts sends the same as a header on every other
// response. Only the hosts the browser really needs beyond our origin, per configuration.
/** @param {Record<string, string | undefined>} env */
function cspHosts(env) {
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

/**
 * @typedef {import('astro').AstroUserConfig} AstroConfig
 * @typedef {NonNullable<Exclude<NonNullable<AstroConfig['security']>['csp'], boolean | undefined>['directives']>} CspDirectives
 */

/**
 * Directives shared by every page and response; script-src is apart (Astro hashes each page's
 * inline scripts, the header policy allows our own origin's scripts).
 * @param {Record<string, string | undefined>} env
 */
export function cspDirectives(env) {
  const hosts = cspHosts(env);
  /** @type {CspDirectives} */
  const directives = [
    "default-src 'self'",
    `img-src 'self' data: blob: ${hosts.img.join(' ')}`.trim(),
    `connect-src 'self' ${hosts.connect.join(' ')}`.trim(),
    `frame-src ${hosts.frame.join(' ') || "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ];
  // 'wasm-unsafe-eval': the header search (Pagefind) compiles its WebAssembly in a worker from our
  // origin, or on the page where workers are unavailable; it allows WebAssembly, not eval.
  return { directives, scriptResources: ["'self'", "'wasm-unsafe-eval'", ...hosts.script] };
}

/**
 * The header policy for responses that are not prebuilt pages (API, on-demand pages, assets). A
 * <meta> policy cannot forbid framing; this one can.
 * @param {Record<string, string | undefined>} env
 */
export function baseCsp(env) {
  const { directives, scriptResources } = cspDirectives(env);
  return [
    ...directives.slice(0, 1),
    `script-src ${scriptResources.join(' ')} 'unsafe-inline'`,
    "style-src 'self' 'unsafe-inline'",
    ...directives.slice(1),
    "frame-ancestors 'none'",
  ].join('; ');
}
