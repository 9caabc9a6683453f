import { z } from 'zod';
import { toolsContract } from '../../lib/contracts/tools.ts';
import type { ToolEdit, ToolInput } from '../../lib/schemas.ts';
import { adminOnly, anyone, viewer } from '../auth/guards.ts';
import { forbidden, notFound, unauthenticated } from '../errors.ts';
import { cachedJson } from '../http/cache.ts';
import { contractRouter } from '../http/contract-router.ts';
import { pageAsk, seqKeySchema } from '../db/paging.ts';
import type { Deps } from '../types.ts';
import type { ToolsService } from './tools.service.ts';

const toolCursorSchema = z.union([seqKeySchema, z.tuple([z.union([z.literal(0), z.literal(1)]), seqKeySchema])]);
/** A ledger page ends at its last movement's number (a bigint column). */
const ledgerKeySchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export function toolsRoutes(deps: Deps, tools: ToolsService) {
  return (
    contractRouter(deps)
      // With limit or cursor (the admin's product list), a page and the total, read fresh; without, the
      // whole catalogue as the storefront reads it, from memory.
      .on(toolsContract.list, anyone, async (c, { query }) => {
        const ask = pageAsk(query, toolCursorSchema);
        if (!ask) return cachedJson(c, await tools.list(), { shows: { kinds: ['tools', 'stock'] } });
        c.header('Cache-Control', 'no-store');
        // The shop's low-stock levels are for admins (Manage products); anyone else pages the public fields.
        const user = await viewer(c, deps);
        const admin = user?.role === 'admin';
        if (query.sort === 'low-stock' && !admin)
          throw user ? forbidden('Admins only') : unauthenticated('Please log in to continue');
        return tools.page(ask, { lowStockFirst: query.sort === 'low-stock', admin });
      })
      .on(toolsContract.get, anyone, async (c, { params }) => {
        const tool = await tools.get(params.id);
        if (!tool) throw notFound('Tool');
        // Kept until the catalogue changes or this tool's stock does, not any tool's.
        return cachedJson(c, tool, { shows: { kinds: ['tools', 'stock'], tools: [tool._id] } });
      })
      .on(toolsContract.create, adminOnly(deps), async (c, { body }) => ({
        acknowledged: true,
        insertedId: await tools.create(body as ToolInput, c.get('user').email),
      }))
      .on(toolsContract.remove, adminOnly(deps), async (c, { params }) => {
        const deletedCount = await tools.remove(params.id, c.get('user').email);
        if (!deletedCount) throw notFound('Tool');
        return { acknowledged: true, deletedCount };
      })
      .on(toolsContract.edit, adminOnly(deps), async (c, { params, body }) => {
        if (!(await tools.update(params.id, body as ToolEdit, c.get('user').email))) throw notFound('Tool');
        return { acknowledged: true, matchedCount: 1, modifiedCount: 1 };
      })
      .on(toolsContract.forEdit, adminOnly(deps), async (_c, { params }) => {
        const tool = await tools.forEdit(params.id);
        if (!tool) throw notFound('Tool');
        return tool;
      })
      .on(toolsContract.ledger, adminOnly(deps), async (c, { params, query }) => {
        c.header('Cache-Control', 'no-store');
        const page = await tools.ledger(params.id, pageAsk(query, ledgerKeySchema)!);
        if (!page) throw notFound('Tool');
        return page;
      })
      .on(toolsContract.restock, adminOnly(deps), async (c, { params, body }) => {
        const matchedCount = await tools.restock(params.id, body.availableQuantity, c.get('user').email);
        if (!matchedCount) throw notFound('Tool');
        return { acknowledged: true, matchedCount, modifiedCount: matchedCount };
      }).app
  );
}
