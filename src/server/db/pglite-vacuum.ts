// PGlite runs PostgreSQL in single-user mode, where no autovacuum runs. Without it, the row versions that
// stock changes, payments and deliveries leave dead stay in their tables and indexes (every scan walks
// them), the planner keeps the statistics of a table's first rows (a plan for 10 orders used on 1M), and
// after ~2 billion transactions PostgreSQL stops taking writes to protect its data (wraparound). This does
// the daemon's job on the embedded store, with autovacuum's default thresholds: every CHECK_MS, each table
// whose dead rows or changes since its last ANALYZE passed them is vacuumed or analyzed, a
// statement per table; one whose oldest transaction id is older than FREEZE_AGE is frozen. PostgreSQL
// (DATABASE_URL) has its own daemon, and this does not run there.
import type { Db } from './client.ts';
import { logger } from '../observability/logger.ts';

const CHECK_MS = 60_000;
/** autovacuum_freeze_max_age's default: a table's rows are frozen before this many transactions go by. */
const FREEZE_AGE = 200_000_000;

export interface VacuumDone {
  table: string;
  /** The statement it ran. */
  ran: string;
  deadRows: number;
  /** How long it held the store (PGlite runs it on the server's thread), ms. */
  ms: number;
}

// autovacuum_vacuum_threshold/scale_factor (50 + 20% of the rows), autovacuum_analyze_threshold/scale_factor
// (50 + 10%). Not its insert threshold: a vacuum here runs on the server's thread, and a table that only
// grew (a restored or bulk-loaded store's 1M orders) would stop every request while all its pages are read;
// such a table is frozen by age instead, and analyzed (a sample of its rows) as it grows.
const DUE = `
  SELECT format('%I.%I', s.schemaname, s.relname) AS "table",
         s.n_dead_tup::int AS dead,
         s.n_dead_tup > 50 + 0.2 * s.n_live_tup AS vacuum,
         s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup AS analyze,
         age(c.relfrozenxid) > $1 AS freeze
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
   ORDER BY s.n_dead_tup DESC`;

/** Vacuums, analyzes or freezes each table that is due, one statement at a time; answers what it did. */
export async function vacuumDue(db: Pick<Db, 'query' | 'exec'>, freezeAge = FREEZE_AGE): Promise<VacuumDone[]> {
  const due = await db.query<{ table: string; dead: number; vacuum: boolean; analyze: boolean; freeze: boolean }>(DUE, [
    freezeAge,
  ]);
  const done: VacuumDone[] = [];
  for (const t of due) {
    const ran = t.freeze
      ? `VACUUM (FREEZE, ANALYZE) ${t.table}`
      : t.vacuum
        ? `VACUUM (ANALYZE) ${t.table}`
        : t.analyze
          ? `ANALYZE ${t.table}`
          : undefined;
    if (!ran) continue;
    const started = performance.now();
    await db.exec(ran);
    done.push({ table: t.table, ran, deadRows: t.dead, ms: Math.round(performance.now() - started) });
  }
  return done;
}

/** Runs vacuumDue every `everyMs` until stopped; a failed round is logged and tried at the next. */
export function pgliteVacuum(db: Pick<Db, 'query' | 'exec'>, { everyMs = CHECK_MS } = {}) {
  let running: Promise<void> | undefined;
  const round = () => {
    running ??= vacuumDue(db)
      .then((done) => {
        if (done.length) logger.info({ tables: done }, 'vacuumed the embedded database');
      })
      .catch((error: Error) => logger.warn({ err: error.message }, 'vacuum failed; trying again next round'))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(round, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
