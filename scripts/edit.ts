// `npm run edit`: the content editor (Keystatic, keystatic.config.ts) over src/content/, inside the dev server
// of `npm run dev`, and its address once it answers. Bound to 127.0.0.1 whatever HOST says: the editor
// writes this machine's files for anyone who reaches it, and has no sign-in of its own.
import '../src/server/load-env.ts';
import { loadConfig } from '../src/server/config.ts';
import { runDevServer } from './lib/dev-server.ts';
import { assertPortFree } from './lib/ports.ts';
import { exitWithUsageIfAsked } from './lib/usage.ts';

exitWithUsageIfAsked(`
'npm run edit': the content editor for the blog, the footer pages and the portfolio, at
http://127.0.0.1:PORT/keystatic (this machine only). It saves to src/content/; publish with npm run publish.
`);

const HOST = '127.0.0.1';
const config = loadConfig({ ...process.env, HOST });
// Astro would move to the next free port by itself, and the address printed below would be wrong.
await assertPortFree(HOST, config.port, 'the content editor').catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
const astro = await runDevServer(config, HOST, { HOST, CONTENT_EDITOR: '1' });

// The first request compiles the editor's page (a few seconds): ask for it before printing the address.
const address = `http://${HOST}:${config.port}/keystatic`;
for (let answered = false; !answered && astro.exitCode === null;) {
  answered = await fetch(address).then(
    (r) => r.ok,
    () => false,
  );
  if (!answered) await new Promise((r) => setTimeout(r, 500));
}
console.log(`\n  Content editor: ${address}\n  Posts are saved to src/content/; Ctrl-C stops.\n`);
