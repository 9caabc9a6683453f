// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { existsSync } from 'node:fs';
import { defineConfig } from 'astro/config';
import { cspDirectives } from './src/lib/csp.mjs';
import { contentCheckIntegration } from './scripts/lib/content-check.ts';
import { apiContracts } from './src/lib/contracts/api.ts';
import { isPublicJsonRead, routeTable } from './src/lib/contracts/route-table.ts';

// `.env` as the server reads it (src/server/main.ts); variables already set win.
if (existsSync('.env')) process.loadEnvFile('.env');
const csp = cspDirectives(process.env);
// The public origin: canonical links, the sitemap, robots.txt, JSON-LD, and the origins Astro accepts
// (behind a TLS proxy the request reaches us as http://, the browser's Origin is https://).
const site = process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321';
const publicUrl = new URL(site);

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
  integrations: [contentCheckIntegration(), react()],
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
    csp: {
      directives: csp.directives,
      scriptDirective: { resources: csp.scriptResources },
    },
  },
  vite: {
    plugins: [tailwindcss()],
    // Each API call's method and path, from the contracts, for the browser's typed client (client/api.ts),
    // and the public reads' alone for the light pages' (client/public-api.ts).
    define: {
      __API_ROUTES__: JSON.stringify(routeTable(apiContracts)),
      __API_PUBLIC_READS__: JSON.stringify(routeTable(apiContracts, isPublicJsonRead)),
    },
    build: { assetsInlineLimit: 0 },
  },
});
