// What a backup holds, in the lines `npm run backup` and `npm run restore` print.
import type { Manifest } from '../../src/server/ops/backup-file.ts';

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
