// What `npm run backup` and `npm run restore` share: their configuration, their one-line failures and
// the lines that say what a backup holds.
import { ConfigError, loadConfig, type Config } from '../../src/server/config.ts';
import type { Manifest } from '../../src/server/ops/backup-file.ts';

export const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

/** The store's configuration, as the store reads it (a bad value is one line, and exit 1). */
export function configOrFail(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const ACCOUNTS: Record<Manifest['accounts']['from'], (count: number) => string> = {
  live: (n) => `${n} Auth emulator accounts, read from the running emulator`,
  saved: (n) => `${n} Auth emulator accounts, as the emulator saved them when it last stopped (it did not answer)`,
  none: () => 'no Auth emulator accounts (with a real Firebase project the accounts live at Firebase)',
};

export function describeBackup(manifest: Manifest): string[] {
  const { store, accounts, parts } = manifest;
  const uploads = parts.filter((part) => part.name.startsWith('uploads/'));
  const total = parts.reduce((sum, part) => sum + part.size, 0);
  return [
    `made ${manifest.createdAt}, ${megabytes(total)}`,
    `the database: ${store.tools} tools, ${store.orders} orders (migration ${store.migration})`,
    `${uploads.length} uploaded files (${megabytes(uploads.reduce((sum, part) => sum + part.size, 0))})`,
    parts.some((part) => part.name === 'jwt-secret')
      ? 'the JWT secret of DATA_DIR'
      : 'no JWT secret (the store took JWT_SECRET from its environment: keep that with your configuration)',
    ACCOUNTS[accounts.from](accounts.count),
  ];
}
