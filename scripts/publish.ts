// `npm run publish` (and `npm run build`): builds the site into a new directory beside the served one,
// then switches DIST_DIR over to it in one step (scripts/lib/build.ts). A store running on this machine
// serves the new build within a second, without a restart; a failed build changes nothing.
// `-- --list` lists the builds kept, `-- --switch ID` serves one of them again (or one copied here).
import '../src/server/load-env.ts';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../src/server/config.ts';
import { publishBuild, switchToBuild, listBuilds } from './lib/build.ts';
import { withEmulatorEnv } from './lib/emulator.ts';

const USAGE = `Usage: npm run publish                 build and serve the site (also: npm run build)
       npm run publish -- --list       the builds kept, the served one marked
       npm run publish -- --switch ID  serve a kept build again (to go back), or one copied here

Builds the site (the blog, the footer pages, the store's pages) into a new directory beside the one
being served, and switches over to it when it is complete. A store running from this directory
(npm start, npm run serve) serves the new build within a second, with no restart and no failed request;
the previous build's scripts and styles stay served for ASSET_GRACE_MINUTES (default 60).
If the build fails, nothing that is served changes.`;

let args: { help?: boolean; list?: boolean; switch?: string };
let config: Config;
try {
  args = parseArgs({
    options: { help: { type: 'boolean' }, list: { type: 'boolean' }, switch: { type: 'string' } },
  }).values;
  config = loadConfig(process.env);
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
// The same environment as npm start's, so the store's next start finds this build up to date.
const env = withEmulatorEnv(process.env, config.firebase.emulatorHost);

if (args.list) {
  for (const { id, served, retiredAt } of listBuilds(env))
    console.log(`${served ? '*' : ' '} ${id}${retiredAt ? `  (served until ${retiredAt})` : ''}`);
  process.exit(0);
}

/** The build a store on this machine's PORT serves, or undefined when none answers. */
async function servedByStore(): Promise<string | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${config.port}/api/health`, { signal: AbortSignal.timeout(2000) });
    return ((await response.json()) as { build?: string }).build;
  } catch {
    return undefined;
  }
}

let id: string;
try {
  id = args.switch ? switchToBuild(env, args.switch) : publishBuild(env).id;
} catch (error) {
  console.error(`${(error as Error).message}\nNothing was published: the store keeps serving the last build.`);
  process.exit(1);
}

let served = await servedByStore();
for (let tries = 0; served !== undefined && served !== id && tries < 50; tries++) {
  await new Promise((r) => setTimeout(r, 200));
  served = await servedByStore();
}
const port = config.port;
if (served === undefined) console.log(`Published ${id}. No store answers on port ${port}: the next start serves it.`);
else if (served === id) console.log(`Published ${id}: the store on port ${port} serves it now.`);
else console.log(`Published ${id}, but the store on port ${port} still serves ${served}: see its log.`);
