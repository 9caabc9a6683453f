// `npm run dev`: Astro's dev server (hot reload; the API runs inside it) plus the Auth emulator.
// Like `npm start`, it needs no Firebase config; Ctrl-C stops both.
import '../src/server/load-env.ts';
import { loadConfig } from '../src/server/config.ts';
import { runDevServer } from './lib/dev-server.ts';
import { exitWithUsageIfAsked } from './lib/usage.ts';

exitWithUsageIfAsked(`
'npm run dev': Astro's dev server with hot reload (the API runs inside it) and the Auth emulator.
Ctrl-C stops both.
`);

const config = loadConfig();
await runDevServer(config, config.host);
