// The serving store's door for operators on this machine: a Unix socket in DATA_DIR that only the
// store's own user may open (mode 0600), never a network port. `npm run backup` asks on it, so the copy
// is made by the one process that holds the embedded database (a second process opening it would lose
// writes), between that process's transactions. One request: the line "backup"; the answer is the
// backup file's bytes, or one line "error: …".
import { once } from 'node:events';
import { chmod, open, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { logger } from '../observability/logger.ts';
import { writeStoreBackup, type BackupSource } from './backup.ts';

export const opsSocketPath = (dataDir: string) => path.join(dataDir, '.ops.sock');
/** Linux's limit for a socket's path (sun_path, less its final NUL). */
const MAX_SOCKET_PATH = 107;
const ERROR = 'error: ';
const NO_SOCKET = 'no backup socket (npm run backup works only while the store is stopped)';

/** Listens on DATA_DIR/.ops.sock; undefined (and said in the log) when it cannot. */
export async function startOpsSocket(source: BackupSource): Promise<{ close(): Promise<void> } | undefined> {
  const file = opsSocketPath(source.config.dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    logger.warn({ file }, `${NO_SOCKET}: DATA_DIR is too long a path for a socket`);
    return undefined;
  }
  // A socket left by a store that died: this process holds the database now (db/pglite.ts' lock).
  await rm(file, { force: true });
  let busy = false;
  const server = net.createServer((socket) => {
    socket.on('error', () => {}); // the command went away: the backup's pipeline fails and says so
    void answer(socket);
  });
  async function answer(socket: net.Socket) {
    const request = await requestLine(socket);
    if (request !== 'backup') return void socket.end(`${ERROR}unknown request\n`);
    if (busy) return void socket.end(`${ERROR}a backup is being made already; try again when it is done\n`);
    busy = true;
    const started = performance.now();
    try {
      const manifest = await writeStoreBackup(source, socket);
      logger.info(
        { ...manifest.store, parts: manifest.parts.length, ms: Math.round(performance.now() - started) },
        'backup made',
      );
    } catch (error) {
      logger.error({ err: (error as Error).message }, 'backup failed');
      if (socket.bytesWritten + socket.writableLength === 0) socket.end(`${ERROR}${(error as Error).message}\n`);
      else socket.destroy();
    } finally {
      busy = false;
    }
  }
  try {
    server.listen(file);
    await once(server, 'listening');
    await chmod(file, 0o600);
  } catch (error) {
    // Some mounted folders take no sockets: the store serves all the same, and says what it lacks.
    server.close();
    logger.warn({ file, err: (error as Error).message }, `${NO_SOCKET}: it cannot listen there`);
    return undefined;
  }
  return {
    // Stops listening; a backup being sent ends with the process (its command then reports it incomplete).
    async close() {
      server.close();
      await rm(file, { force: true });
    },
  };
}

/** The request's first line (a few bytes, within 10 s), or '' when it does not come. */
function requestLine(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const done = (line: string) => {
      socket.off('data', onData);
      socket.setTimeout(0);
      resolve(line);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\n');
      if (end >= 0) done(text.slice(0, end));
      else if (text.length > 64) done('');
    };
    socket.on('data', onData);
    socket.setTimeout(10_000, () => done(''));
  });
}

/**
 * The command's side: asks the store serving dataDir for a backup and writes the answer to out (the
 * backup, or the store's refusal: see `refusalIn`). False when no store answers on the socket.
 */
export async function askForBackup(dataDir: string, out: Writable): Promise<boolean> {
  const socket = net.connect(opsSocketPath(dataDir));
  try {
    await once(socket, 'connect');
  } catch {
    socket.destroy();
    return false;
  }
  socket.write('backup\n');
  await pipeline(socket, out);
  return true;
}

/** The store's refusal when the answer written to file is one, else undefined. */
export async function refusalIn(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const text = head.subarray(0, bytesRead).toString('utf8');
    return text.startsWith(ERROR) ? text.slice(ERROR.length).trim() : undefined;
  } finally {
    await handle.close();
  }
}
