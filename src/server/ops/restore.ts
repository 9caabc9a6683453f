// A backup back into DATA_DIR. The file is checked whole first. Everything is then written into a
// staging directory inside DATA_DIR (the same disk, so the final moves are renames, and a DATA_DIR that
// is a mounted volume works) and moved into place only once the database in it has opened and holds
// what the manifest says. Anything that fails before that leaves DATA_DIR as it was.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { lockHolder } from '../db/pglite.ts';
import { openDb } from '../db/open.ts';
import { migrations } from '../db/migrations.ts';
import { BackupError, readPart, verifyBackup, type Backup, type Manifest } from './backup-file.ts';
import { DATABASE_PART, EMULATOR_EXPORT, storeFacts } from './backup.ts';

/** The parts restored as files, by name or folder; the database is loaded, not copied. */
const FILE_PARTS = ['jwt-secret', 'uploads', EMULATOR_EXPORT];
/** What a fresh filesystem puts in its root: DATA_DIR on a volume is still empty with it. */
const NOT_CONTENT = new Set(['lost+found']);

export async function restoreBackup(file: string, dataDir: string, { force = false } = {}): Promise<Manifest> {
  const backup = await verifyBackup(file);
  const { manifest } = backup;
  if (manifest.store.migration > migrations.length)
    throw new BackupError(
      `The backup was made by a newer version of the store (its database is at migration ${manifest.store.migration}; this one knows ${migrations.length}). Update the store, then restore.`,
    );
  if ((await contentOf(dataDir)).length && !force)
    throw new BackupError(
      `${dataDir} is not empty. Restore into an empty DATA_DIR, or add --force to replace what it holds.`,
    );
  assertNotServing(dataDir);

  const created = !existsSync(dataDir);
  await mkdir(dataDir, { recursive: true });
  const stage = await mkdtemp(path.join(dataDir, '.restore-'));
  try {
    await unpack(backup, stage);
    assertNotServing(dataDir);
    await moveIntoPlace(stage, dataDir);
  } catch (error) {
    await rm(created ? dataDir : stage, { recursive: true, force: true });
    throw error;
  }
  return manifest;
}

async function contentOf(dataDir: string): Promise<string[]> {
  const info = await stat(dataDir).catch(() => undefined);
  if (!info) return [];
  if (!info.isDirectory()) throw new BackupError(`${dataDir} is not a directory. Set DATA_DIR to a directory.`);
  return (await readdir(dataDir)).filter((name) => !NOT_CONTENT.has(name));
}

function assertNotServing(dataDir: string) {
  const pid = lockHolder(path.join(dataDir, 'pg'));
  if (pid)
    throw new BackupError(`A store (pid ${pid}) is serving ${dataDir}. Stop it first: a restore replaces its data.`);
}

async function unpack(backup: Backup, stage: string) {
  const { parts, store } = backup.manifest;
  if (!parts.some((part) => part.name === DATABASE_PART))
    throw new BackupError('The backup file is damaged (it holds no database). Use another copy.');
  for (const [index, part] of parts.entries()) {
    const bytes = await readPart(backup, index);
    if (part.name === DATABASE_PART) {
      await loadDatabase(bytes, stage, store);
      continue;
    }
    if (!FILE_PARTS.some((name) => part.name === name || part.name.startsWith(`${name}/`)))
      throw new BackupError(
        `The backup file holds a part this store does not know (${part.name}). Update the store, then restore.`,
      );
    // Part names are checked segments (backup-file.ts): they stay inside the staging directory.
    const target = path.join(stage, ...part.name.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes, { mode: part.name === 'jwt-secret' ? 0o600 : 0o644 });
  }
}

/** Loads the database into stage/pg and checks that it holds what the backup's manifest says. */
async function loadDatabase(gzipped: Buffer, stage: string, expected: Manifest['store']) {
  const tarball = await promisify(gunzip)(gzipped).catch(() => {
    throw new BackupError('The backup file is damaged (its database does not unpack). Use another copy.');
  });
  const db = await openDb({ dataDir: stage, loadDataDir: new Blob([tarball]) });
  try {
    const found = await storeFacts(db);
    if (!isDeepStrictEqual(found, expected))
      throw new BackupError(
        `The backup file is damaged (its database holds ${JSON.stringify(found)}, its manifest says ${JSON.stringify(expected)}). Use another copy.`,
      );
  } finally {
    await db.close();
  }
}

/** Moves what DATA_DIR holds aside, the staged store in, then drops what was aside; on a failure, undoes it. */
async function moveIntoPlace(stage: string, dataDir: string) {
  const old = (await contentOf(dataDir)).filter((name) => name !== path.basename(stage));
  const aside = await mkdtemp(path.join(dataDir, '.replaced-'));
  const movedIn: string[] = [];
  try {
    for (const name of old) await rename(path.join(dataDir, name), path.join(aside, name));
    for (const name of await readdir(stage)) {
      await rename(path.join(stage, name), path.join(dataDir, name));
      movedIn.push(name);
    }
  } catch (error) {
    for (const name of movedIn) await rm(path.join(dataDir, name), { recursive: true, force: true });
    for (const name of await readdir(aside)) await rename(path.join(aside, name), path.join(dataDir, name));
    await rm(aside, { recursive: true, force: true });
    throw error;
  }
  await rm(aside, { recursive: true, force: true });
  await rm(stage, { recursive: true, force: true });
}
