// The embedded store's wire, for the prepared path only (db/pglite-prepared.ts): builds the messages a
// statement sends (Bind, Describe, Execute, Sync) and reads the backend's answer straight from its bytes.
// PGlite's own protocol code (node-postgres's, its private fields compiled to WeakMaps) copied each field
// of each row into a buffer of its own and made every message an object: ~12% of the server's CPU while
// orders flow, against ~3% here (bench/before-after.md, 2026-12-01).

/** How a column's text becomes a value (PGlite's `parsers`, by type oid). */
export type Parsers = Record<number, ((text: string, typeId: number) => unknown) | undefined>;

/** One command's answer. */
export interface Answer<T = Record<string, unknown>> {
  rows: T[];
  /** The command tag's first word: SELECT, INSERT, COMMIT, ROLLBACK … */
  command: string;
}

/** An error the backend sent (ErrorResponse), with the fields node-postgres gives its DatabaseError. */
export class PgliteError extends Error {
  severity?: string;
  code?: string;
  detail?: string;
  hint?: string;
  position?: string;
  where?: string;
  schema?: string;
  table?: string;
  column?: string;
  dataType?: string;
  constraint?: string;
  routine?: string;
}

const ERROR_FIELDS: Record<string, keyof PgliteError> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  R: 'routine',
};

const DESCRIBE_EXECUTE_SYNC = Buffer.from([
  ...[0x44, 0, 0, 0, 6, 0x50, 0], // Describe the unnamed portal
  ...[0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0], // Execute it, all rows
  ...[0x53, 0, 0, 0, 4], // Sync
]);
const EXECUTE = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0]);
export const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/** A Bind of the named statement to text-format values (null for NULL). */
function bind(statement: string, values: readonly (string | Uint8Array | null)[]): Buffer {
  const nameBytes = Buffer.byteLength(statement);
  let length = 4 + 1 + nameBytes + 1 + 2 + 2 + 2; // length, portal "", name, formats, count, result formats
  for (const value of values)
    length += 4 + (value === null ? 0 : typeof value === 'string' ? Buffer.byteLength(value) : value.length);
  const out = Buffer.allocUnsafe(1 + length);
  let at = 0;
  out[at++] = 0x42; // 'B'
  at = out.writeInt32BE(length, at);
  out[at++] = 0; // the unnamed portal
  at += out.write(statement, at);
  out[at++] = 0;
  at = out.writeInt16BE(0, at); // every parameter as text
  at = out.writeInt16BE(values.length, at);
  for (const value of values) {
    if (value === null) {
      at = out.writeInt32BE(-1, at);
    } else if (typeof value === 'string') {
      const size = out.write(value, at + 4);
      out.writeInt32BE(size, at);
      at += 4 + size;
    } else {
      at = out.writeInt32BE(value.length, at);
      out.set(value, at);
      at += value.length;
    }
  }
  out.writeInt16BE(0, at); // every column as text
  return out;
}

/** A statement with its values, answered in full: Bind, Describe, Execute, Sync (after `before`, if any). */
export function statementMessages(
  statement: string,
  values: readonly (string | Uint8Array | null)[],
  before?: Uint8Array,
): Buffer {
  return Buffer.concat([...(before ? [before] : []), bind(statement, values), DESCRIBE_EXECUTE_SYNC]);
}

/** A statement without parameters or rows (BEGIN, COMMIT), to send ahead of others or with SYNC. */
export const controlMessages = (statement: string): Buffer => Buffer.concat([bind(statement, []), EXECUTE]);

/**
 * Reads the backend's answer: one Answer per command completed, in order. Throws the first error it sent
 * (the backend skips the rest of the messages until Sync, so nothing after it completed).
 */
export function readAnswers(bytes: Uint8Array, parsers: Parsers): Answer[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const answers: Answer[] = [];
  let names: string[] = [];
  let types: number[] = [];
  let rows: Record<string, unknown>[] = [];
  let at = 0;
  while (at + 5 <= buf.length) {
    const kind = buf[at];
    const end = at + 1 + buf.readInt32BE(at + 1);
    let p = at + 5;
    switch (kind) {
      case 0x54: {
        // RowDescription: per column its name, then table oid, column number, type oid, size, modifier, format
        const count = buf.readInt16BE(p);
        p += 2;
        names = new Array<string>(count);
        types = new Array<number>(count);
        for (let i = 0; i < count; i++) {
          const nul = buf.indexOf(0, p);
          names[i] = buf.toString('utf8', p, nul);
          types[i] = buf.readInt32BE(nul + 1 + 6);
          p = nul + 1 + 18;
        }
        break;
      }
      case 0x44: {
        // DataRow: per column a length (-1 for NULL) and its text
        const count = buf.readInt16BE(p);
        p += 2;
        const row: Record<string, unknown> = {};
        for (let i = 0; i < count; i++) {
          const size = buf.readInt32BE(p);
          p += 4;
          if (size < 0) {
            row[names[i]] = null;
            continue;
          }
          const text = buf.toString('utf8', p, p + size);
          p += size;
          const parse = parsers[types[i]];
          row[names[i]] = parse ? parse(text, types[i]) : text;
        }
        rows.push(row);
        break;
      }
      case 0x43: {
        // CommandComplete: its tag, e.g. "INSERT 0 1"
        const tag = buf.toString('utf8', p, buf.indexOf(0, p));
        answers.push({ rows, command: tag.split(' ', 1)[0] });
        rows = [];
        names = [];
        types = [];
        break;
      }
      case 0x45:
        throw errorOf(buf, p, end);
      // ParseComplete, BindComplete, NoData, ReadyForQuery, notices and the rest: nothing to keep
    }
    at = end;
  }
  return answers;
}

function errorOf(buf: Buffer, from: number, end: number): PgliteError {
  const fields: Record<string, string> = {};
  let p = from;
  while (p < end && buf[p] !== 0) {
    const code = String.fromCharCode(buf[p]);
    const nul = buf.indexOf(0, p + 1);
    fields[code] = buf.toString('utf8', p + 1, nul);
    p = nul + 1;
  }
  const error = new PgliteError(fields.M ?? 'unknown database error');
  for (const [code, name] of Object.entries(ERROR_FIELDS))
    if (fields[code] !== undefined) error[name] = fields[code] as never;
  return error;
}
