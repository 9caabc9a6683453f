// The statements over `quotes` and `quote_lines` (the only code that touches them): the rows, the reads as
// the API shows them, and the writes. quotes.service.ts owns the rules and the transactions.
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

/** One buyer's requests are counted one at a time, so parallel requests cannot all pass the limit. */
export const lockOpenQuotesOf = (q: Queryable, email: string) =>
  q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`open-quotes:${email}`]);

/** How many of the buyer's requests wait for an answer. */
export const countRequested = async (q: Queryable, email: string) =>
  (
    await q.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM quotes WHERE email = $1 AND state = 'requested'`,
      [email],
    )
  )[0].open;

export interface NewQuote {
  id: string;
  email: string;
  buyerUid: string | null;
  userName: string;
  note: string;
  createdAt: Date;
  lines: { toolId: string; name: string; quantity: number; listCents: number }[];
}

/** A request and its lines (numbered from 1 in the given order), in one statement. */
export const insertQuote = (q: Queryable, quote: NewQuote) =>
  q.query(
    `WITH q AS (INSERT INTO quotes (id, email, buyer_uid, user_name, note, created_at) VALUES ($1, $2, $3, $4, $5, $6))
     INSERT INTO quote_lines (quote_id, line, tool_id, product_name, quantity, list_unit_cents)
     SELECT $1, l.n, l.tool_id, l.product_name, l.quantity, l.list_unit_cents
     FROM unnest($7::text[], $8::text[], $9::int[], $10::int[]) WITH ORDINALITY AS l(tool_id, product_name, quantity, list_unit_cents, n)`,
    [
      quote.id,
      quote.email,
      quote.buyerUid,
      quote.userName,
      quote.note,
      quote.createdAt,
      quote.lines.map((l) => l.toolId),
      quote.lines.map((l) => l.name),
      quote.lines.map((l) => l.quantity),
      quote.lines.map((l) => l.listCents),
    ],
  );

/** Sets the quoted unit price of each line by its tool (`prices`: tool id → cents). */
export const setQuotedPrices = (q: Queryable, id: string, prices: Map<string, number>) =>
  q.query(
    `UPDATE quote_lines SET quoted_unit_cents = p.cents FROM unnest($2::text[], $3::int[]) AS p(tool_id, cents)
     WHERE quote_id = $1 AND quote_lines.tool_id = p.tool_id`,
    [id, [...prices.keys()], [...prices.values()]],
  );

export const markAnswered = async (q: Queryable, id: string, by: string, at: Date, expiresAt: Date) =>
  (
    await q.query<QuoteRow>(
      `UPDATE quotes SET state = 'answered', answered_by = $2, answered_at = $3, expires_at = $4 WHERE id = $1 RETURNING *`,
      [id, by, at, expiresAt],
    )
  )[0];

/** Accepted only while answered and not expired at `at`: undefined when it no longer is (another accept won). */
export const markAccepted = async (q: Queryable, id: string, orderId: string, at: Date) =>
  (
    await q.query<{ id: string }>(
      `UPDATE quotes SET state = 'accepted', order_id = $2 WHERE id = $1 AND state = 'answered' AND expires_at > $3 RETURNING id`,
      [id, orderId, at],
    )
  )[0] as { id: string } | undefined;

/** Declined only while requested or answered: undefined when it no longer is. */
export const markDeclined = async (q: Queryable, id: string) =>
  (
    await q.query<QuoteRow>(
      `UPDATE quotes SET state = 'declined' WHERE id = $1 AND state IN ('requested', 'answered') RETURNING *`,
      [id],
    )
  )[0] as QuoteRow | undefined;
