// Keyset paging for the dashboard lists (SQL-side: the services page their reads with it). A page is the `limit` rows after the last row of the previous
// page in the list's order, whatever was inserted or deleted in between: no row is skipped or repeated,
// and a deep page costs what the first one does (an index range, never an OFFSET over the rows before).
// The cursor is that last row's sort key, base64url JSON: opaque to clients, checked like any input.
import { z } from 'zod';
import type { ListPage } from '../../lib/entities.ts';
import { LIST_PAGE_SIZE } from '../../lib/limits.ts';
import { invalid } from '../errors.ts';

export interface PageAsk<K> {
  limit: number;
  /** The sort key of the last row already seen; absent for the first page. */
  after?: K;
}

/**
 * The paging a list read asks for (its query, through pagingQuerySchema or listPageQuerySchema), or
 * undefined when it sends neither `limit` nor `cursor` (then the read answers the spec's plain array).
 * `key` checks a cursor's decoded sort key.
 */
export function pageAsk<S extends z.ZodType>(
  { limit, cursor }: { limit?: number; cursor?: string },
  key: S,
  defaultLimit = LIST_PAGE_SIZE,
): PageAsk<z.output<S>> | undefined {
  if (limit === undefined && cursor === undefined) return undefined;
  return cursor === undefined
    ? { limit: limit ?? defaultLimit }
    : { limit: limit ?? defaultLimit, after: decodeCursor(cursor, key) };
}

/** The key of lists in the order of an identity column (tools.seq, orders.seq): the last row's number. */
export const seqKeySchema = z.number().int().min(0).max(2_147_483_647);

export const encodeCursor = (key: unknown): string => Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor<S extends z.ZodType>(cursor: string, key: S): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor is not valid', { cursor: 'cursor is not valid' });
  }
  const result = key.safeParse(value);
  if (!result.success) throw invalid('cursor is not valid', { cursor: 'cursor is not valid' });
  return result.data;
}

/**
 * A page from rows read with `limit + 1` (the extra row only says whether another page follows) and
 * the list's total. `keyOf` gives a row's sort key, the next page's cursor.
 */
export function listPage<R, T>(
  rows: R[],
  limit: number,
  total: number,
  keyOf: (row: R) => unknown,
  toJson: (row: R) => T,
): ListPage<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toJson),
    total,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null,
  };
}
