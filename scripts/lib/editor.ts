// The content editor's part of the dev server (`npm run edit`; astro.config.mjs imports this only then):
// Keystatic's routes (keystatic.config.ts), no other site's page allowed to call them, and the editor's page
// left alone when a content file changes.
import keystatic from '@keystatic/astro';
import type { AstroIntegration } from 'astro';

/**
 * Astro's dev server reloads every open page when a content file changes, the editor's own included, a
 * moment after each save (Keystatic issue 643): the page flashes and what is typed meanwhile is lost.
 * Vite's client skips a reload whose path names another page, so the editor's page renames it.
 */
const KEEP_PAGE = `
if (import.meta.hot && /^\\/keystatic(\\/|$)/.test(location.pathname))
  import.meta.hot.on('vite:beforeFullReload', (payload) => { payload.path = '/not-the-editor.html'; });
`;

const editorDevServer: AstroIntegration = {
  name: 'content-editor-dev-server',
  hooks: {
    'astro:config:setup': ({ injectScript, updateConfig }) => {
      injectScript('before-hydration', KEEP_PAGE);
      // Vite lets pages of any localhost origin call the dev server (CORS); the editor's calls write files,
      // and only its own page, on this origin, makes them.
      updateConfig({ vite: { server: { cors: false } } });
    },
  },
};

export const contentEditor = (): AstroIntegration[] => [keystatic(), editorDevServer];
