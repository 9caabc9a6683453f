// `npm run dev`: Astro's dev server (hot reload; the API runs inside it) plus the Auth emulator.
// Like `npm start`, it needs no Firebase config; Ctrl-C stops both.
import '../src/server/load-env.ts';
import { loadConfig } from '../src/server/config.ts';
import { runDevServer } from './lib/dev-server.ts';

const config = loadConfig();
await runDevServer(config, config.host);
