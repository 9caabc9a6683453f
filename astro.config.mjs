// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { existsSync } from 'node:fs';
import { defineConfig } from 'astro/config';
import { cspDirectives } from './src/lib/csp.mjs';
import { contentCheckIntegration } from './scripts/lib/content-check.ts';
import { noIcuAtStart } from './scripts/lib/no-icu-at-start.ts';
import { apiContracts } from './src/lib/contracts/api.ts';
import { isPublicJsonRead, routeTable } from './src/lib/contracts/route-table.ts';

// `.env` as the server reads it (src/server/main.ts); variables already set win.
if (existsSync('.env')) process.loadEnvFile('.env');
const csp = cspDirectives(process.env);
// The public origin: canonical links, the sitemap, robots.txt, JSON-LD, and the origins Astro accepts
// (behind a TLS proxy the request reaches us as http://, the browser's Origin is https://).
const site = process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321';
const publicUrl = new URL(site);
// The content editor (Keystatic, keystatic.config.ts) exists only in `npm run edit` (scripts/edit.ts), a dev
// server on this machine: a build never has its routes, so no production server answers /keystatic. Its
// packages are devDependencies, imported only here, so a production install (--omit=dev) still builds.
const editing = process.env.CONTENT_EDITOR === '1' && process.argv.includes('dev');
const editor = editing ? (await import('./scripts/lib/editor.ts')).contentEditor() : [];
// The editor writes files on request: it must never be reachable from another machine (without --host,
// Keystatic's integration binds 127.0.0.1 itself).
const hostFlag = process.argv.findIndex((a) => a === '--host' || a.startsWith('--host='));
const host = hostFlag < 0 ? undefined : (process.argv[hostFlag].split('=')[1] ?? process.argv[hostFlag + 1] ?? '');
if (editing && host !== undefined && !['127.0.0.1', 'localhost'].includes(host))
  throw new Error(`The content editor listens on 127.0.0.1 only, not on "${host}": start it with npm run edit.`);

/**
 * `client:signedin` (src/client/directives/signed-in.ts): islands of the pages kept for signed-in users.
 * @returns {import('astro').AstroIntegration}
 */
const signedInDirective = () => ({
  name: 'ironcrest:signed-in-directive',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) =>
      addClientDirective({ name: 'signedin', entrypoint: './src/client/directives/signed-in.ts' }),
  },
});

export default defineConfig({
  site,
  output: 'static',
  outDir: process.env.DIST_DIR ?? './dist',
  // Middleware mode: our own server (src/server/main.ts) serves static files with headers,
  // compression and caching, and hands everything else to Astro. staticHeaders writes each
  // prebuilt page's CSP (with its script hashes) to dist/_headers.json so we can send it as a header.
  // ASTRO_NODE_STANDALONE=1 builds the same site for Astro's own Node server instead: only the bench
  // uses it (scripts/bench/standalone.ts), as the peer a user would otherwise pick.
  adapter: node({
    mode: process.env.ASTRO_NODE_STANDALONE === '1' ? 'standalone' : 'middleware',
    staticHeaders: true,
    bodySizeLimit: 8 * 1024 * 1024,
  }),
  // A post with a problem stops the build before it writes anything (scripts/lib/content-check.ts).
  integrations: [contentCheckIntegration(), react(), signedInDirective(), ...editor],
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'always' },
  prefetch: false,
  // Shiki colours code with inline style attributes, which the hashed style-src of our CSP blocks;
  // code blocks are plain <pre><code> styled by .prose-blog in global.css.
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
  security: {
    checkOrigin: true,
    allowedDomains: [
      {
        hostname: publicUrl.hostname,
        protocol: publicUrl.protocol.replace(':', ''),
        ...(publicUrl.port && { port: publicUrl.port }),
      },
    ],
    // Built pages only. The dev server (npm run dev, npm run edit) injects Vite's styles and, under the
    // editor, Keystatic's inline scripts, which a hashed policy blocks: pages came out unstyled. It serves
    // this machine's developer or editor, never the store's visitors; every build keeps the policy, and
    // the browser tests check it on the built store.
    csp: !process.argv.includes('dev') && {
      directives: csp.directives,
      scriptDirective: { resources: csp.scriptResources },
    },
  },
  vite: {
    // Astro's server code maps no ICU data at start (scripts/lib/no-icu-at-start.ts).
    plugins: [tailwindcss(), noIcuAtStart()],
    // Each API call's method and path, from the contracts, for the browser's typed client (client/infra/api.ts),
    // and the public reads' alone for the light pages' (client/infra/public-api.ts).
    define: {
      __API_ROUTES__: JSON.stringify(routeTable(apiContracts)),
      __API_PUBLIC_READS__: JSON.stringify(routeTable(apiContracts, isPublicJsonRead)),
    },
    build: { assetsInlineLimit: 0 },
  },
});
