// The quotes' rows and reads: one quote with its lines, or a list of them, as the API shows them.
// quotes.service.ts owns the writes; both are the only code that touches `quotes` and `quote_lines`.
import type { ListPage, Quote, QuoteState } from '../../lib/entities.ts';
import { toDollars } from '../../lib/money.ts';
import type { Queryable } from '../db/client.ts';
import { listPage, type PageAsk } from '../db/paging.ts';

export interface QuoteRow {
  id: string;
  seq: number;
  email: string;
  buyer_uid: string | null;
  user_name: string;
  note: string;
  state: 'requested' | 'answered' | 'accepted' | 'declined';
  answered_by: string | null;
  answered_at: string | Date | null;
  expires_at: string | Date | null;
  order_id: string | null;
  created_at: string | Date;
}

export interface QuoteLineRow {
  quote_id: string;
  line: number;
  tool_id: string | null;
  product_name: string;
  quantity: number;
  list_unit_cents: number;
  quoted_unit_cents: number | null;
}

const COLUMNS =
  'id, seq, email, buyer_uid, user_name, note, state, answered_by, answered_at, expires_at, order_id, created_at';
const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** How the audit log and the emails name a quote: its short reference and its buyer. */
export const quoteRef = (id: string) => id.slice(-8).toUpperCase();
export const quoteTarget = (quote: { id: string; email: string }) => `Quote ${quoteRef(quote.id)} of ${quote.email}`;

/** An answered quote whose offer ran out reads as 'expired' (nothing writes it: time does). */
export const isExpired = (row: Pick<QuoteRow, 'state' | 'expires_at'>, now: Date) =>
  row.state === 'answered' && row.expires_at !== null && new Date(row.expires_at) <= now;

export function quoteJson(row: QuoteRow, lines: QuoteLineRow[], now: Date): Quote {
  const answered = lines.length > 0 && lines.every((l) => l.quoted_unit_cents !== null);
  return {
    _id: row.id,
    email: row.email,
    userName: row.user_name,
    note: row.note,
    state: isExpired(row, now) ? 'expired' : row.state,
    lines: lines.map((l) => ({
      toolId: l.tool_id,
      productName: l.product_name,
      quantity: l.quantity,
      listPrice: toDollars(l.list_unit_cents),
      price: l.quoted_unit_cents === null ? null : toDollars(l.quoted_unit_cents),
    })),
    totalCents: answered ? lines.reduce((sum, l) => sum + l.quantity * l.quoted_unit_cents!, 0) : null,
    createdAt: iso(row.created_at)!,
    answeredAt: iso(row.answered_at),
    expiresAt: iso(row.expires_at),
    orderId: row.order_id,
  };
}

/** One quote's row (locked for the transaction with `lock`) and its lines in order. */
export async function readQuote(
  q: Queryable,
  id: string,
  lock = false,
): Promise<{ row: QuoteRow; lines: QuoteLineRow[] } | undefined> {
  const [row] = await q.query<QuoteRow>(`SELECT ${COLUMNS} FROM quotes WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [
    id,
  ]);
  if (!row) return undefined;
  const lines = await q.query<QuoteLineRow>('SELECT * FROM quote_lines WHERE quote_id = $1 ORDER BY line', [id]);
  return { row, lines };
}

/** Who sees which quotes: a buyer their own (email and sign-in account), an admin all (buyer undefined). */
export interface QuoteFilter {
  buyer?: { email: string; uid: string | null };
  state?: QuoteState;
}

/**
 * The filter as SQL over $1 (email or null), $2 (uid, when a buyer), $3 (the stored state or null),
 * $4 (now) and $5 (true: expired only, false: not expired, null: either).
 */
const WHERE = `($1::text IS NULL OR (email = $1 AND buyer_uid IS NOT DISTINCT FROM $2::text))
  AND ($3::text IS NULL OR state = $3)
  AND ($5::boolean IS NULL OR (expires_at IS NOT NULL AND expires_at <= $4::timestamptz) = $5)`;

function whereParams({ buyer, state }: QuoteFilter, now: Date): unknown[] {
  // 'expired' and 'answered' are both stored as answered; the expiry tells them apart.
  const stored = state === 'expired' ? 'answered' : (state ?? null);
  const expired = state === 'expired' ? true : state === 'answered' ? false : null;
  return [buyer?.email ?? null, buyer?.uid ?? null, stored, now, expired];
}

async function linesOf(q: Queryable, rows: QuoteRow[]): Promise<Map<string, QuoteLineRow[]>> {
  const byQuote = new Map<string, QuoteLineRow[]>(rows.map((r) => [r.id, []]));
  if (!rows.length) return byQuote;
  const lines = await q.query<QuoteLineRow>(
    'SELECT * FROM quote_lines WHERE quote_id = ANY($1) ORDER BY quote_id, line',
    [rows.map((r) => r.id)],
  );
  for (const l of lines) byQuote.get(l.quote_id)!.push(l);
  return byQuote;
}

/** Every matching quote, newest first (the plain list). */
export async function listQuotes(q: Queryable, filter: QuoteFilter, now: Date): Promise<Quote[]> {
  const rows = await q.query<QuoteRow>(
    `SELECT ${COLUMNS} FROM quotes WHERE ${WHERE} ORDER BY seq DESC`,
    whereParams(filter, now),
  );
  const lines = await linesOf(q, rows);
  return rows.map((r) => quoteJson(r, lines.get(r.id)!, now));
}

/** A page of the matching quotes, newest first, after the quote numbered `after`, and how many match. */
export async function pageQuotes(
  q: Queryable,
  filter: QuoteFilter,
  { limit, after }: PageAsk<number>,
  now: Date,
): Promise<ListPage<Quote>> {
  const params = whereParams(filter, now);
  const rows = await q.query<QuoteRow>(
    `SELECT ${COLUMNS} FROM quotes WHERE ${WHERE} AND ($6::bigint IS NULL OR seq < $6) ORDER BY seq DESC LIMIT $7`,
    [...params, after ?? null, limit + 1],
  );
  const [{ total }] = await q.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM quotes WHERE ${WHERE}`,
    params,
  );
  const lines = await linesOf(q, rows);
  return listPage(
    rows,
    limit,
    total,
    (r) => Number(r.seq),
    (r) => quoteJson(r, lines.get(r.id)!, now),
  );
}
