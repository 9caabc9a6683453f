// `npm run restore -- FILE [--force]`: a backup made by `npm run backup` back into DATA_DIR. The file is
// checked whole before anything is written; DATA_DIR must be empty, or --force replaces what it holds
// (never while a store serves it). See src/server/ops/restore.ts.
import '../src/server/load-env.ts';
import path from 'node:path';
import { BackupError } from '../src/server/ops/backup-file.ts';
import { notEmbedded } from '../src/server/ops/backup.ts';
import { restoreBackup } from '../src/server/ops/restore.ts';
import { configOrFail, describeBackup, fail } from './lib/ops-cli.ts';
import { exitWithUsageIfAsked } from './lib/usage.ts';

exitWithUsageIfAsked(`
Usage: npm run restore -- FILE [--force]
Restores a backup made by npm run backup into DATA_DIR, which must be empty; --force replaces what it
holds (never while a store serves it). The file is checked whole before anything is written.
`);

const args = process.argv.slice(2);
const force = args.includes('--force');
const files = args.filter((arg) => arg !== '--force');
if (files.length !== 1 || files[0].startsWith('-'))
  fail('Usage: npm run restore -- FILE [--force]   (into DATA_DIR; --force replaces a store that is there)');
const file = path.resolve(files[0]);
const config = configOrFail();
if (config.databaseUrl) fail(notEmbedded('Restore it with pg_restore (or your point-in-time recovery)'));

try {
  const manifest = await restoreBackup(file, config.dataDir, { force });
  console.log(`Restored ${file} into ${config.dataDir}:`);
  for (const line of describeBackup(manifest)) console.log(`  ${line}`);
  console.log('Start the store as usual (npm start, or npm run serve); migrations newer than the backup run then.');
} catch (error) {
  fail(
    error instanceof BackupError
      ? error.message
      : `The restore failed, DATA_DIR is as it was: ${(error as Error).message}`,
  );
}
