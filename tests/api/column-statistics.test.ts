// Wide columns that no statement filters, joins or sorts on (an event's data, an email's bodies, an invoice's
// document) get no statistics: ANALYZE skips them (migration 22), which on the embedded store runs on the
// server's thread while orders flow. The columns the planner uses keep theirs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRuntime, type TestRuntime } from './harness';

describe('column statistics', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await createTestRuntime();
  });
  afterAll(() => runtime.close());

  it('ANALYZE keeps none for the wide read-back columns and keeps them for the others', async () => {
    await runtime.db.exec(`
      INSERT INTO events (type, subject, actor, data)
        SELECT 'order.placed', 'o' || g, NULL, jsonb_build_object('lines', jsonb_build_array(g, 'x'))
        FROM generate_series(1, 200) g;
      ANALYZE events;
      ANALYZE emails;`);
    const analysed = async (table: string) =>
      (
        await runtime.db.query<{ attname: string }>(
          `SELECT attname FROM pg_stats WHERE schemaname = current_schema() AND tablename = $1`,
          [table],
        )
      ).map((r) => r.attname);
    const events = await analysed('events');
    expect(events).toEqual(expect.arrayContaining(['type', 'subject', 'seq']));
    expect(events).not.toContain('data');
    const skipped = await runtime.db.query<{ table: string; column: string; target: number }>(
      `SELECT c.relname AS table, a.attname AS column, a.attstattarget::int AS target
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = current_schema()::regnamespace
          AND (c.relname, a.attname) IN (('events', 'data'), ('emails', 'text_body'), ('emails', 'html_body'),
                                         ('emails', 'attachments'), ('invoices', 'document'))`,
    );
    expect(skipped).toHaveLength(5);
    for (const column of skipped) expect(column.target, `${column.table}.${column.column}`).toBe(0);
  });
});
