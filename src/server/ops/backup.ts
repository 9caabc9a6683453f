// What a backup of the embedded store holds, read by the one process that holds it: the database (a copy
// taken between transactions), the JWT secret, the Auth emulator's accounts and the uploads. The
// database is copied first: an upload or an account its rows name was made before, so it is in the
// backup too (uploads are never changed or removed once written).
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/client.ts';
import { BackupError, isPartName, writeBackup, type Manifest, type PartSource } from './backup-file.ts';

export interface BackupSource {
  db: Db;
  config: Pick<Config, 'dataDir' | 'firebase'>;
}

/** The database's part: PGlite's data directory as a gzipped tarball. */
export const DATABASE_PART = 'database/pg.tar.gz';
/** Where `npm start` keeps the emulator's accounts and imports them from (scripts/lib/emulator.ts). */
export const EMULATOR_EXPORT = 'auth-emulator/export';

/** The refusal with DATABASE_URL, where PostgreSQL's own tools do the work. */
export const notEmbedded = (how = 'Back it up with pg_dump, or point-in-time recovery') =>
  `DATABASE_URL is set: the store lives in PostgreSQL (uploads included), not in DATA_DIR. ${how}; see README "Operations".`;

/** What the database holds, read in the copy's own moment; a restore reads the same from what it loaded. */
export async function storeFacts(tx: Queryable): Promise<Manifest['store']> {
  const [row] = await tx.query<Manifest['store']>(
    `SELECT (SELECT coalesce(max(version), 0) FROM schema_migrations)::int AS migration,
       (SELECT count(*) FROM tools)::int AS tools, (SELECT count(*) FROM orders)::int AS orders`,
  );
  return row;
}

/** Writes a backup of the store to out, ends out, and returns the backup's manifest. */
export async function writeStoreBackup({ db, config }: BackupSource, out: Writable): Promise<Manifest> {
  if (!db.snapshot) throw new BackupError(notEmbedded());
  const { tarball, read: store } = await db.snapshot(storeFacts);
  const database = await promisify(gzip)(Buffer.from(await tarball.arrayBuffer()));
  const accounts = await emulatorAccounts(config);
  const secret = path.join(config.dataDir, 'jwt-secret');
  const parts: PartSource[] = [
    { name: DATABASE_PART, bytes: database },
    ...(existsSync(secret) ? [{ name: 'jwt-secret', file: secret }] : []),
    ...accounts.parts,
    ...(await filesUnder(path.join(config.dataDir, 'uploads'), 'uploads')),
  ];
  const head = { createdAt: new Date().toISOString(), store, accounts: { from: accounts.from, count: accounts.count } };
  return writeBackup(out, head, parts);
}

/** Every file under dir (hidden ones, such as uploads still being written, left out), named prefix/…. */
async function filesUnder(dir: string, prefix: string): Promise<PartSource[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { name: `${prefix}/${path.relative(dir, file).split(path.sep).join('/')}`, file };
    })
    .filter((part) => isPartName(part.name))
    .sort((a, b) => a.name.localeCompare(b.name));
}

interface Accounts {
  from: Manifest['accounts']['from'];
  count: number;
  parts: PartSource[];
}

/**
 * The emulator's accounts as its own export writes them (firebase-tools' hubExport), read from the
 * running emulator, so an account made a moment ago is in; when it does not answer, what it saved when
 * it last stopped. With a real Firebase project the accounts live at Firebase: none to keep.
 */
async function emulatorAccounts(config: BackupSource['config']): Promise<Accounts> {
  const host = config.firebase.emulatorHost;
  if (!host) return { from: 'none', count: 0, parts: [] };
  const owner = async (url: string) => {
    const response = await fetch(`http://${host}${url}`, {
      headers: { authorization: 'Bearer owner' },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  };
  const project = encodeURIComponent(config.firebase.projectId);
  try {
    const accounts = await owner(
      `/identitytoolkit.googleapis.com/v1/projects/${project}/accounts:batchGet?maxResults=-1`,
    );
    const settings = await owner(`/emulator/v1/projects/${project}/config`);
    const metadata = { version: 'ironcrest-backup', auth: { version: 'ironcrest-backup', path: 'auth_export' } };
    return {
      from: 'live',
      count: countAccounts(accounts),
      parts: [
        { name: `${EMULATOR_EXPORT}/firebase-export-metadata.json`, bytes: Buffer.from(JSON.stringify(metadata)) },
        { name: `${EMULATOR_EXPORT}/auth_export/accounts.json`, bytes: accounts },
        { name: `${EMULATOR_EXPORT}/auth_export/config.json`, bytes: settings },
      ],
    };
  } catch {
    const dir = path.join(config.dataDir, EMULATOR_EXPORT);
    const parts = await filesUnder(dir, EMULATOR_EXPORT);
    if (!parts.length) return { from: 'none', count: 0, parts };
    const saved = await readFile(path.join(dir, 'auth_export', 'accounts.json')).catch(() => Buffer.from('{}'));
    return { from: 'saved', count: countAccounts(saved), parts };
  }
}

function countAccounts(json: Buffer): number {
  try {
    const users = (JSON.parse(json.toString('utf8')) as { users?: unknown[] }).users;
    return Array.isArray(users) ? users.length : 0;
  } catch {
    return 0;
  }
}
