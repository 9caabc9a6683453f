// `npm run bench [-- part]`: measurements of the built store. Parts: pages.
// `pages --check` (used by `npm test`) fails when a page exceeds its JavaScript budget.
import path from 'node:path';
import { measurePages, printWeights } from './pages.ts';

const [part = 'all', ...flags] = process.argv.slice(2);
const distDir = path.resolve(process.env.DIST_DIR ?? (flags.includes('--check') ? 'dist-e2e' : 'dist'));

if (part === 'pages' || part === 'all') {
  const ok = printWeights(measurePages(distDir));
  if (!ok) {
    console.error('A page is over its JavaScript budget.');
    process.exit(1);
  }
}
