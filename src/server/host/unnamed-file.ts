// A temporary file that only this process can reach, for data it would otherwise keep in memory (the search
// index's chunks, search-index.ts).
import { constants } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Linux's O_TMPFILE, which Node's fs.constants leaves out. */
const O_TMPFILE = 0o20000000 | constants.O_DIRECTORY;

/**
 * A temporary file no other process can find: on Linux one that never has a name (O_TMPFILE), so nothing is
 * left behind even when the process is killed; elsewhere, or on a file system without such files, a named one
 * removed as soon as it is open.
 */
export async function unnamedFile(): Promise<FileHandle> {
  if (process.platform === 'linux') {
    try {
      return await open(os.tmpdir(), constants.O_RDWR | O_TMPFILE, 0o600);
    } catch {
      // not supported here: a named file below
    }
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ironcrest-'));
  try {
    return await open(path.join(dir, 'chunks'), 'w+', 0o600);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
