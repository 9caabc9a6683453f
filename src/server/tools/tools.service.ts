import type { Tool } from '../../lib/entities';
import { toCents, toDollars } from '../../lib/money';
import type { ToolInput } from '../../lib/schemas';
import type { Db, Queryable } from '../db/client';
import { newId } from '../ids';
import { publicDataChanged, runtime } from '../runtime';

export type { Tool };

export interface ToolRow {
  id: string;
  name: string;
  img: string;
  description: string;
  minimum_order_quantity: number;
  available_quantity: number;
  price_cents: number;
}

export const toolJson = (r: ToolRow): Tool => ({
  _id: r.id,
  name: r.name,
  img: r.img,
  description: r.description,
  minimumOrderQuantity: r.minimum_order_quantity,
  availableQuantity: r.available_quantity,
  price: toDollars(r.price_cents),
});

const CACHE_TTL_MS = 5000;
const COLUMNS = 'id, name, img, description, minimum_order_quantity, available_quantity, price_cents';

/**
 * The catalogue, newest first. Reads are cached in memory and dropped on every write made through
 * this module (all tool and stock writes are; callers of take/giveBack invalidate after commit),
 * so a public read costs no query.
 */
export function toolsService(db: Db) {
  let cache: Tool[] | undefined;
  let cachedAt = 0;
  // Bumped by every write, so a read that started before the write never caches what it saw.
  let generation = 0;
  const invalidate = () => {
    cache = undefined;
    generation++;
    publicDataChanged();
  };

  async function list(): Promise<Tool[]> {
    // The short TTL covers writes made by other server processes sharing one PostgreSQL.
    if (!cache || Date.now() - cachedAt > CACHE_TTL_MS) {
      const started = generation;
      const rows = await db.query<ToolRow>(`SELECT ${COLUMNS} FROM tools ORDER BY seq DESC`);
      const fresh = rows.map(toolJson);
      if (started !== generation) return fresh;
      cache = fresh;
      cachedAt = Date.now();
      runtime.toolIds = new Set(fresh.map((t) => t._id));
    }
    return cache;
  }

  return {
    list,
    invalidate,
    async get(id: string): Promise<Tool | undefined> {
      return (await list()).find((t) => t._id === id);
    },
    async create(input: ToolInput): Promise<string> {
      const id = newId();
      await db.query(
        `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, input.name, input.description, input.img, toCents(input.price), input.minimumOrderQuantity, input.availableQuantity],
      );
      invalidate();
      runtime.toolIds?.add(id);
      return id;
    },
    async remove(id: string): Promise<number> {
      const rows = await db.transaction(async (tx) => {
        // Deleting the tool rewrites its orders' tool_id. Lock those orders first, as every other writer
        // does (order, then stock): locking the tool first deadlocked with a buyer deleting their order.
        await tx.query('SELECT id FROM orders WHERE tool_id = $1 ORDER BY id FOR UPDATE', [id]);
        return tx.query('DELETE FROM tools WHERE id = $1 RETURNING id', [id]);
      });
      invalidate();
      // At once, not on the next list(): the server checks these ids before serving a prebuilt page.
      runtime.toolIds?.delete(id);
      return rows.length;
    },
    async restock(id: string, availableQuantity: number): Promise<number> {
      const rows = await db.query('UPDATE tools SET available_quantity = $2 WHERE id = $1 RETURNING id', [id, availableQuantity]);
      invalidate();
      return rows.length;
    },
    /** Takes stock atomically; returns the tool row as it was sold, or undefined when not enough is left. */
    async take(tx: Queryable, id: string, quantity: number): Promise<ToolRow | undefined> {
      const [row] = await tx.query<ToolRow>(
        `UPDATE tools SET available_quantity = available_quantity - $2
         WHERE id = $1 AND available_quantity >= $2 AND minimum_order_quantity <= $2
         RETURNING ${COLUMNS}`,
        [id, quantity],
      );
      return row;
    },
    async giveBack(tx: Queryable, id: string | null, quantity: number): Promise<void> {
      if (id) await tx.query('UPDATE tools SET available_quantity = available_quantity + $2 WHERE id = $1', [id, quantity]);
    },
  };
}
export type ToolsService = ReturnType<typeof toolsService>;
