// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import { cspHosts } from './src/lib/csp-hosts.mjs';

const hosts = cspHosts(process.env);

export default defineConfig({
  site: process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321',
  output: 'static',
  outDir: process.env.DIST_DIR ?? './dist',
  // Middleware mode: our own server (src/server/main.ts) serves static files with headers,
  // compression and caching, and hands everything else to Astro. staticHeaders writes each
  // prebuilt page's CSP (with its script hashes) to dist/_headers.json so we can send it as a header.
  adapter: node({ mode: 'middleware', staticHeaders: true, bodySizeLimit: 8 * 1024 * 1024 }),
  integrations: [react()],
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'always' },
  prefetch: false,
  // Shiki colours code with inline style attributes, which the hashed style-src of our CSP blocks;
  // code blocks are plain <pre><code> styled by .prose-blog in global.css.
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
  security: {
    checkOrigin: true,
    csp: {
      directives: [
        "default-src 'self'",
        `img-src 'self' data: blob: ${hosts.img.join(' ')}`,
        `connect-src 'self' ${hosts.connect.join(' ')}`,
        `frame-src ${hosts.frame.join(' ') || "'none'"}`,
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
      scriptDirective: { resources: ["'self'", ...hosts.script] },
    },
  },
  vite: {
    plugins: [tailwindcss()],
    build: { assetsInlineLimit: 0 },
  },
});
