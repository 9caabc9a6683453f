// The content editor's part of the dev server (`npm run edit`, astro.config.mjs imports this only then):
// Keystatic's routes (keystatic.config.ts), and its page left alone when a content file changes.
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

const keepEditorPage: AstroIntegration = {
  name: 'content-editor-keeps-its-page',
  hooks: { 'astro:config:setup': ({ injectScript }) => injectScript('before-hydration', KEEP_PAGE) },
};

export const contentEditor = (): AstroIntegration[] => [keystatic(), keepEditorPage];
