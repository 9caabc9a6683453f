// The backup file: one file an operator can copy anywhere, checked whole before a restore touches
// anything. Layout: "IRONCREST-BACKUP\n", the manifest as one JSON line, then each part's bytes in the
// manifest's order. The manifest lists every part's name, size and SHA-256, so a file cut short is
// seen from its size alone and a damaged one from its checksums.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';

const MAGIC = Buffer.from('IRONCREST-BACKUP\n');
/** The layout's version: a restore refuses a file of a newer one rather than guess. */
export const BACKUP_FORMAT = 1;
/** A manifest lists one line per upload; this bounds what a restore reads before it knows the file is ours. */
const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;

/** Path segments of word characters, dots and dashes, none starting with a dot (no `..`, no hidden files). */
const PART_NAME = /^\w[\w.-]*(?:\/\w[\w.-]*)*$/;

export const isPartName = (name: string) => name.length <= 300 && PART_NAME.test(name);

const partSchema = z.object({
  name: z.string().max(300).regex(PART_NAME),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.iso.datetime(),
  /** What the database held at the moment of the copy (a restore checks the copy it loads against it). */
  store: z.object({
    migration: z.number().int().min(0),
    tools: z.number().int().min(0),
    orders: z.number().int().min(0),
  }),
  /** The Auth emulator's accounts: read from the running emulator, its last saved export, or none (real Firebase). */
  accounts: z.object({ from: z.enum(['live', 'saved', 'none']), count: z.number().int().min(0) }),
  parts: z.array(partSchema),
});
export type Manifest = z.output<typeof manifestSchema>;
export type Part = Manifest['parts'][number];

/** A refusal an operator reads: the message says what is wrong and what to do. */
export class BackupError extends Error {}

const foreign = (file: string) => new BackupError(`${file} is not an Ironcrest store backup.`);
const incomplete = (detail: string) =>
  new BackupError(
    `The backup file is incomplete (${detail}): it was cut short while being made or copied. Use another copy.`,
  );
const damaged = (detail: string) => new BackupError(`The backup file is damaged (${detail}). Use another copy.`);

/** A part to write: bytes in memory, or a file read as it is written. */
export type PartSource = { name: string } & ({ bytes: Buffer } | { file: string });

const sha256OfFile = async (file: string) => {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
};

/** Writes a backup of parts to out, ends out, and returns the backup's manifest. */
export async function writeBackup(
  out: Writable,
  head: Omit<Manifest, 'format' | 'parts'>,
  sources: PartSource[],
): Promise<Manifest> {
  const parts: Part[] = [];
  for (const source of sources) {
    if ('bytes' in source)
      parts.push({
        name: source.name,
        size: source.bytes.length,
        sha256: createHash('sha256').update(source.bytes).digest('hex'),
      });
    else
      parts.push({ name: source.name, size: (await stat(source.file)).size, sha256: await sha256OfFile(source.file) });
  }
  const manifest = manifestSchema.parse({ format: BACKUP_FORMAT, ...head, parts });
  async function* bytes() {
    yield Buffer.concat([MAGIC, Buffer.from(`${JSON.stringify(manifest)}\n`)]);
    for (const source of sources) {
      if ('bytes' in source) yield source.bytes;
      else yield* createReadStream(source.file);
    }
  }
  // One pipeline: a reader that goes away (out closed) fails the write rather than leave it waiting.
  await pipeline(Readable.from(bytes()), out);
  return manifest;
}

/** An opened backup: its manifest, and where each part starts in the file. */
export interface Backup {
  file: string;
  manifest: Manifest;
  offsets: number[];
}

/** Reads and checks the head of a backup file: ours, of a known format, and as long as its manifest says. */
export async function openBackup(file: string): Promise<Backup> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(
      error.code === 'ENOENT' ? `${file} does not exist.` : `${file} cannot be read (${error.code}).`,
    );
  });
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw foreign(file);
    const size = stats.size;
    // The head: the magic line, then the manifest line, read in chunks until its newline.
    let head = Buffer.alloc(0);
    let newline = -1;
    while (newline < 0) {
      const chunk = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, head.length);
      head = Buffer.concat([head, chunk.subarray(0, bytesRead)]);
      const start = Math.min(head.length, MAGIC.length);
      if (!head.subarray(0, start).equals(MAGIC.subarray(0, start))) throw foreign(file);
      if (head.length > MAGIC.length) newline = head.indexOf(0x0a, MAGIC.length);
      if (newline < 0 && bytesRead === 0)
        throw incomplete(head.length ? `it ends at byte ${head.length}, inside its manifest` : 'it is empty');
      if (newline < 0 && head.length > MAX_MANIFEST_BYTES) throw damaged('its manifest has no end');
    }
    const manifest = parseManifest(head.subarray(MAGIC.length, newline).toString('utf8'));
    const offsets: number[] = [];
    let at = newline + 1;
    for (const part of manifest.parts) {
      offsets.push(at);
      at += part.size;
    }
    if (size < at) throw incomplete(`${size} of ${at} bytes`);
    if (size > at) throw damaged(`${size - at} bytes more than its manifest lists`);
    return { file, manifest, offsets };
  } finally {
    await handle.close();
  }
}

function parseManifest(text: string): Manifest {
  let json: { format?: unknown };
  try {
    json = JSON.parse(text);
  } catch {
    throw damaged('its manifest is not readable');
  }
  if (typeof json?.format === 'number' && json.format > BACKUP_FORMAT)
    throw new BackupError(
      `The backup file was made by a newer version of the store (format ${json.format}; this one reads ${BACKUP_FORMAT}). Update the store, then restore.`,
    );
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw damaged(`its manifest is not valid: ${parsed.error.issues[0].path.join('.')}`);
  return parsed.data;
}

const partRange = (backup: Backup, index: number) => {
  const start = backup.offsets[index];
  return { start, end: start + backup.manifest.parts[index].size - 1 };
};

/** Reads every part once and checks its checksum: a file that passes restores as it was made. */
export async function verifyBackup(file: string): Promise<Backup> {
  const backup = await openBackup(file);
  for (const [index, part] of backup.manifest.parts.entries()) {
    const hash = createHash('sha256');
    if (part.size > 0) await pipeline(createReadStream(file, partRange(backup, index)), hash);
    if (hash.digest('hex') !== part.sha256) throw damaged(`${part.name} does not match its checksum`);
  }
  return backup;
}

/** One part's bytes, checked against its checksum (the file may have changed since it was verified). */
export async function readPart(backup: Backup, index: number): Promise<Buffer> {
  const part = backup.manifest.parts[index];
  const handle = await open(backup.file, 'r');
  try {
    const bytes = Buffer.alloc(part.size);
    const { bytesRead } = await handle.read(bytes, 0, part.size, backup.offsets[index]);
    if (bytesRead !== part.size) throw incomplete(`${part.name} is cut short`);
    if (createHash('sha256').update(bytes).digest('hex') !== part.sha256)
      throw damaged(`${part.name} does not match its checksum`);
    return bytes;
  } finally {
    await handle.close();
  }
}
