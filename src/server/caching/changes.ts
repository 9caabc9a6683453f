// The invalidation bus. A write announces what it changed after commit; every cache that shows that
// data listens and drops its copy. With PGlite (one process) announcements stay in process; with
// PostgreSQL every server LISTENs on one channel, so a write on any server reaches all within
// milliseconds. Expiry timers in the caches remain only as a safety net.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Queryable } from '../db/client.ts';
import { namesIn, pendingChanges } from './change-payloads.ts';

/** What changed: the catalogue (tools added, deleted, edited), stock levels, public reviews, or users' rows. */
export type Change = 'tools' | 'stock' | 'reviews' | 'users';
const KINDS = new Set<string>(['tools', 'stock', 'reviews', 'users']);
/** The kinds whose changes may name what they touched: stock (tool ids) and users (emails). */
const NAMED_KINDS: ReadonlySet<Change> = new Set<Change>(['stock', 'users']);

/** The data an answer or page shows: these kinds of change, and with `tools` only those tools' stock. */
export interface Shows {
  kinds: readonly Change[];
  tools?: readonly string[];
}

/**
 * Runs on each change. `named`: for a stock change, the tools whose stock it changed; for a users change,
 * the emails whose rows it changed (undefined: any may have, so every copy showing that kind is stale).
 */
export type ChangeListener = (change: Change, named?: readonly string[]) => void;

export interface ChangeBus {
  /**
   * Called by a service after its write committed. A stock change names the tools it touched when it
   * knows them, so caches refresh those tools only (issue 30: reads stay fast while orders flow); a
   * users change names the emails, so a sign-in drops that user's kept row only.
   */
  announce(change: Change, named?: readonly string[]): void;
  /** Runs fn for every change, local or from another server; returns the unsubscribe. */
  subscribe(fn: ChangeListener): () => void;
  /** Bumped by every change: copies made at an older version are stale. */
  readonly version: number;
  /**
   * Bumped by every change of these kinds: a copy that shows only them is stale when it moved. With
   * `tools`, a stock change counts only when it touched one of them or did not say which it touched.
   */
  versionOf(kinds: readonly Change[], tools?: readonly string[]): number;
  /**
   * Whether a change since `version` (a value of `version`) may have touched what `shows` shows: a copy
   * made from data read after that point is current only if not. True when it is too long ago to tell.
   * With `until`, only changes up to that version count (what a request that arrived then must see).
   */
  changedSince(version: number, shows: Shows, until?: number): boolean;
  /**
   * Whether every change, here or on another server, reaches this bus now (false while the PostgreSQL
   * listener reconnects). A copy that must never be stale (a user's role) is used only while it is true.
   */
  listening(): boolean;
  close(): Promise<void>;
}

/**
 * The bus of a runtime that may not be open yet (the outer server starts before its database): until
 * it is, nothing has changed and every copy counts as stale.
 */
export function changesOf(bus: () => ChangeBus | undefined): Pick<ChangeBus, 'version' | 'versionOf' | 'changedSince'> {
  return {
    get version() {
      return bus()?.version ?? 0;
    },
    versionOf: (kinds, tools) => bus()?.versionOf(kinds, tools) ?? 0,
    changedSince: (version, shows, until) => bus()?.changedSince(version, shows, until) ?? true,
  };
}

/**
 * Another server hears of a change at most this much later than it would alone: the cost of sending
 * changes that come close together as one NOTIFY. At 10 ms, orders flowing at 85/s cost a NOTIFY each
 * (a round trip, and a wake-up of every listener): 50 ms sends a fifth of them (bench/before-after.md).
 */
const NOTIFY_EVERY_MS = 50;
/** Recent changes kept for changedSince: far more than arrive while one page renders under a rush. */
const LOG_SIZE = 1024;

const touches = (shows: Shows, change: Change, tools: readonly string[] | undefined): boolean => {
  if (!shows.kinds.includes(change)) return false;
  if (change !== 'stock' || !shows.tools || !tools) return true;
  return tools.some((id) => shows.tools!.includes(id));
};

function localBus() {
  const listeners = new Set<ChangeListener>();
  let version = 0;
  const byKind: Record<Change, number> = { tools: 0, stock: 0, reviews: 0, users: 0 };
  // Stock changes that did not say which tools, and per tool those that named it: both only grow, so a
  // copy's sum moves whenever anything it shows may have changed.
  let stockOfAny = 0;
  const stockByTool = new Map<string, number>();
  /** The last LOG_SIZE changes, the one that made version v at v % LOG_SIZE. */
  const log: { change: Change; tools?: readonly string[] }[] = new Array(LOG_SIZE);
  return {
    emit(change: Change, named?: readonly string[]) {
      version++;
      byKind[change]++;
      const tools = change === 'stock' ? named : undefined;
      log[version % LOG_SIZE] = { change, tools };
      if (change === 'stock') {
        if (tools) for (const id of tools) stockByTool.set(id, (stockByTool.get(id) ?? 0) + 1);
        else stockOfAny++;
      }
      for (const fn of listeners) fn(change, named);
    },
    versionOf(kinds: readonly Change[], tools?: readonly string[]) {
      let sum = 0;
      for (const kind of kinds) {
        if (kind !== 'stock' || !tools) sum += byKind[kind];
        else {
          sum += stockOfAny;
          for (const id of tools) sum += stockByTool.get(id) ?? 0;
        }
      }
      return sum;
    },
    changedSince(since: number, shows: Shows, until = version) {
      if (version - since >= LOG_SIZE) return true;
      for (let v = since + 1; v <= until; v++)
        if (touches(shows, log[v % LOG_SIZE].change, log[v % LOG_SIZE].tools)) return true;
      return false;
    },
    subscribe(fn: ChangeListener) {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    get version() {
      return version;
    },
  };
}

/** PGlite: one process, so announcing is telling our own listeners. */
export function memoryBus(): ChangeBus {
  const local = localBus();
  return {
    announce: local.emit,
    subscribe: local.subscribe,
    versionOf: local.versionOf,
    changedSince: local.changedSince,
    get version() {
      return local.version;
    },
    listening: () => true,
    close: async () => {},
  };
}

export const CHANNEL = 'store_changes';

/** PostgresBusOptions.notify on a database: the notifications in one statement. */
export const notifyOn = (db: Pick<Queryable, 'query'>) => (channel: string, payloads: string[]) =>
  db.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [channel, payloads]);

interface ListenClient {
  connect(): Promise<unknown>;
  query(sql: string, params?: unknown[]): Promise<unknown>;
  on(event: 'notification', fn: (msg: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', fn: (error?: Error) => void): unknown;
  end(): Promise<void>;
}

export interface PostgresBusOptions {
  /** A new dedicated connection (LISTEN holds it for the process's life). */
  connect: () => ListenClient;
  /** Sends these notifications, in one statement, on the shared pool. */
  notify: (channel: string, payloads: string[]) => Promise<unknown>;
  log: Pick<Logger, 'warn' | 'info'>;
  /** At most one NOTIFY per this many ms; changes announced meanwhile go together in the next. */
  coalesceMs?: number;
}

/**
 * PostgreSQL: NOTIFY after commit, LISTEN on a dedicated connection that reconnects with backoff.
 * While it is away, notifications are missed, so on every (re)connect every cache is dropped once.
 */
export function postgresBus({ connect, notify, log, coalesceMs = NOTIFY_EVERY_MS }: PostgresBusOptions): ChangeBus {
  const local = localBus();
  const self = randomUUID();
  const pending = pendingChanges(NAMED_KINDS);
  let lastSent = -Infinity;
  let flushTimer: NodeJS.Timeout | undefined;
  const sending = new Set<Promise<unknown>>();

  /** Sends what is pending now. */
  function flush() {
    flushTimer = undefined;
    if (pending.empty) return;
    lastSent = performance.now();
    const sent = notify(CHANNEL, pending.take(self))
      .catch((error: Error) => log.warn({ err: error.message }, 'could not announce a change'))
      .finally(() => sending.delete(sent));
    sending.add(sent);
  }
  let client: ListenClient | undefined;
  let listening = false;
  let closed = false;
  let delay = 250;
  let retry: NodeJS.Timeout | undefined;

  const dropEverything = () => {
    for (const kind of KINDS) local.emit(kind as Change);
  };

  async function listen() {
    if (closed) return;
    const next = connect();
    client = next;
    let failed = false;
    const lost = (error?: Error) => {
      if (failed || closed) return;
      failed = true;
      listening = false;
      log.warn({ err: error?.message }, 'change listener lost its connection; reconnecting');
      next.end().catch(() => {});
      retry = setTimeout(() => void listen(), delay);
      retry.unref();
      delay = Math.min(delay * 2, 5000);
    };
    next.on('error', lost);
    next.on('end', () => lost(new Error('connection ended')));
    next.on('notification', (msg) => {
      const [sender, kind, names] = (msg.payload ?? '').split(':');
      if (sender !== self && KINDS.has(kind)) local.emit(kind as Change, namesIn(names));
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      listening = true;
      delay = 250;
      dropEverything();
    } catch (error) {
      lost(error as Error);
    }
  }
  void listen();

  return {
    announce(change, named) {
      local.emit(change, named);
      pending.add(change, named);
      if (flushTimer) return;
      // A lone change goes at once; one close behind another waits for the rest of the burst.
      const wait = lastSent + coalesceMs - performance.now();
      if (wait <= 0) flush();
      else flushTimer = setTimeout(flush, wait);
    },
    subscribe: local.subscribe,
    versionOf: local.versionOf,
    changedSince: local.changedSince,
    get version() {
      return local.version;
    },
    listening: () => listening,
    async close() {
      closed = true;
      clearTimeout(retry);
      clearTimeout(flushTimer);
      flush();
      await Promise.all(sending);
      await client?.end().catch(() => {});
    },
  };
}
