// `npm run backup -- FILE`: one file holding the embedded store (database, uploads, JWT secret, Auth
// emulator accounts), made without stopping it. A serving store makes it itself, through its socket in
// DATA_DIR (src/server/ops/ops-socket.ts); with no store serving, this process opens DATA_DIR (taking its
// lock) and makes it. The file appears only once it is complete and checked.
import '../src/server/load-env.ts';
import { existsSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { lockHolder } from '../src/server/db/pglite.ts';
import { openDb } from '../src/server/db/open.ts';
import { BackupError, verifyBackup, type Manifest } from '../src/server/ops/backup-file.ts';
import { notEmbedded, writeStoreBackup } from '../src/server/ops/backup.ts';
import { askForBackup, opsSocketPath, refusalIn } from '../src/server/ops/ops-socket.ts';
import { configOrFail, describeBackup, fail } from './lib/ops-cli.ts';
import { exitWithUsageIfAsked } from './lib/usage.ts';

exitWithUsageIfAsked(`
Usage: npm run backup -- FILE
One file holding the embedded store in DATA_DIR (database, uploads, JWT secret, Auth emulator accounts),
made without stopping it. FILE must not exist.
`);

const args = process.argv.slice(2);
if (args.length !== 1 || args[0].startsWith('-'))
  fail('Usage: npm run backup -- FILE   (FILE: where the backup goes; it must not exist)');
const file = path.resolve(args[0]);
const config = configOrFail();
if (config.databaseUrl) fail(notEmbedded());
if (existsSync(file)) fail(`${file} exists already. Choose a new name: a backup never replaces another.`);
const dataDir = config.dataDir;

const cutShort = (error: Error) =>
  new BackupError(
    `The backup stopped before it was complete (${error.message}); nothing was written. The store's log says more.`,
  );

/** Writes the backup into partial: made by the serving store, or here when none serves DATA_DIR. */
async function make(partial: string): Promise<void> {
  // Opened here, so a folder that is missing or not writable is said as such.
  const out = (await open(partial, 'wx', 0o600)).createWriteStream();
  try {
    const asked = await askForBackup(dataDir, out).catch((error: Error) => {
      throw cutShort(error);
    });
    if (asked) {
      const refusal = await refusalIn(partial);
      if (refusal) throw new BackupError(`The store refused the backup: ${refusal}`);
      return;
    }
    const holder = lockHolder(path.join(dataDir, 'pg'));
    if (holder)
      throw new BackupError(
        `A store (pid ${holder}) holds ${dataDir} but does not answer on its backup socket ${opsSocketPath(dataDir)} (npm run dev has none; a server says why in its log). Stop it, then run the backup again.`,
      );
    if (!existsSync(path.join(dataDir, 'pg', 'PG_VERSION')))
      throw new BackupError(`There is no store in ${dataDir}. Set DATA_DIR to the store's directory.`);
    const db = await openDb({ dataDir });
    try {
      await writeStoreBackup({ db, config }, out);
    } finally {
      await db.close();
    }
  } catch (error) {
    // The file's handle is closed now, not by the garbage collector (Node warns when it does, on stderr).
    out.destroy();
    throw error;
  }
}

const partial = `${file}.partial-${process.pid}`;
let manifest: Manifest;
try {
  await make(partial);
  manifest = (
    await verifyBackup(partial).catch((error: Error) => {
      throw cutShort(error);
    })
  ).manifest;
  await rename(partial, file);
} catch (error) {
  await rm(partial, { force: true });
  fail(error instanceof BackupError ? error.message : `The backup failed: ${(error as Error).message}`);
}
console.log(`Backed up ${dataDir} to ${file}:`);
for (const line of describeBackup(manifest!)) console.log(`  ${line}`);
