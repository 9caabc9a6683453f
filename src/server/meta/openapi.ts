// The OpenAPI 3.1 document of the API, made once from the routes bound to their contracts: each route
// entered itself when it was bound (http/contract-router.ts), with its guard's security; the mounted
// routers' entries are merged into the API's registry by @hono/zod-openapi. Served as /api/openapi.json
// and read by /api/docs (docs-page.ts).
import type { OpenAPIHono } from '@hono/zod-openapi';
import { BRAND } from '../../lib/brand.ts';
import type { AppEnv } from '../types.ts';

export type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

const DESCRIPTION = `The API of the ${BRAND} store: the calls of its product spec (point 7) under their spec names (\`_id\`, \`Messege\`, \`{services, count}\`, \`acknowledged\` …), and those added since.

**Signing in.** Sign in with Firebase Auth, then exchange the Firebase ID token for the store's access token: \`PUT /user/{email}\` with the ID token as the bearer answers \`{token}\`. Every protected call carries that token as \`Authorization: Bearer …\`; it lasts an hour (a 401 asks for a new exchange). Roles are read from the store on each call, never from the token.

**Errors.** Every refusal is JSON \`{error: {code, message, fields?}}\` with a 4xx status (a 503 when the database is away: try again after \`Retry-After\`); \`fields\` names each bad field of the input.

**Writes from a browser** on another origin are refused (403): call the API from a server, or from the store's own pages.`;

/** The document of the routes `api` holds now (call it once every router is mounted). */
export function openApiDocument(api: OpenAPIHono<AppEnv>, version: string): OpenApiDocument {
  const registry = api.openAPIRegistry;
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "The store's access token, from PUT /user/{email}.",
  });
  registry.registerComponent('securitySchemes', 'firebaseIdToken', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'Firebase ID token',
    description: 'A Firebase Auth ID token of the account named in the path (the sign-in exchange only).',
  });
  registry.registerComponent('securitySchemes', 'stripeSignature', {
    type: 'apiKey',
    in: 'header',
    name: 'Stripe-Signature',
    description: "Stripe's signature over the raw body, with the webhook's secret.",
  });
  return api.getOpenAPI31Document({
    openapi: '3.1.0',
    info: { title: `${BRAND} API`, version, description: DESCRIPTION },
    servers: [{ url: '/api', description: 'This store' }],
  });
}
