import { Hono } from 'hono';
import { z } from 'zod';
import { idSchema, restockSchema, toolEditSchema, toolInputSchema, type ToolEdit, type ToolInput } from '../../lib/schemas.ts';
import { adminOnly, viewer } from '../auth/guards.ts';
import { forbidden, notFound, unauthorized } from '../http/errors.ts';
import { cachedJson } from '../http/cache.ts';
import { jsonBody, parse } from '../http/validate.ts';
import { pageAsk, seqKeySchema } from '../http/paging.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { ToolsService } from './tools.service.ts';

/** Manage products' order: newest first (the default) or the tools below their low-stock level first. */
const toolSortSchema = z.object({ sort: z.enum(['newest', 'low-stock'], { error: 'sort must be newest or low-stock' }).default('newest') });
const toolCursorSchema = z.union([seqKeySchema, z.tuple([z.union([z.literal(0), z.literal(1)]), seqKeySchema])]);
/** A ledger page ends at its last movement's number (a bigint column). */
const ledgerKeySchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export function toolsRoutes(deps: Deps, tools: ToolsService) {
  return new Hono<AppEnv>()
    // With limit or cursor (the admin's product list), a page and the total, read fresh; without, the
    // whole catalogue as the storefront reads it, from memory.
    .get('/tools', async (c) => {
      const ask = pageAsk(c.req.query(), toolCursorSchema);
      if (ask) {
        c.header('Cache-Control', 'no-store');
        const { sort } = parse(toolSortSchema, { sort: c.req.query('sort') });
        // The shop's low-stock levels are for admins (Manage products); anyone else pages the public fields.
        const user = await viewer(c, deps);
        const admin = user?.role === 'admin';
        if (sort === 'low-stock' && !admin) throw user ? forbidden('Admins only') : unauthorized('Please log in to continue');
        return c.json(await tools.page(ask, { lowStockFirst: sort === 'low-stock', admin }));
      }
      return cachedJson(c, await tools.list(), { shows: { kinds: ['tools', 'stock'] } });
    })
    .get('/tools/:id', async (c) => {
      const tool = await tools.get(c.req.param('id'));
      if (!tool) throw notFound('Tool');
      // Kept until the catalogue changes or this tool's stock does, not any tool's.
      return cachedJson(c, tool, { shows: { kinds: ['tools', 'stock'], tools: [tool._id] } });
    })
    .post('/tools', adminOnly(deps), async (c) => {
      const input = (await jsonBody(c, toolInputSchema)) as ToolInput;
      const insertedId = await tools.create(input, c.get('user').email);
      return c.json({ acknowledged: true, insertedId }, 201);
    })
    .delete('/tools/dlt/:id', adminOnly(deps), async (c) => {
      const deletedCount = await tools.remove(parse(idSchema, c.req.param('id')), c.get('user').email);
      if (!deletedCount) throw notFound('Tool');
      return c.json({ acknowledged: true, deletedCount });
    })
    .put('/tools/:id', adminOnly(deps), async (c) => {
      const id = parse(idSchema, c.req.param('id'));
      const input = (await jsonBody(c, toolEditSchema)) as ToolEdit;
      if (!(await tools.update(id, input, c.get('user').email))) throw notFound('Tool');
      return c.json({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
    })
    .get('/tools/:id/edit', adminOnly(deps), async (c) => {
      const tool = await tools.forEdit(parse(idSchema, c.req.param('id')));
      if (!tool) throw notFound('Tool');
      return c.json(tool);
    })
    .get('/tools/:id/ledger', adminOnly(deps), async (c) => {
      c.header('Cache-Control', 'no-store');
      const ask = pageAsk({ limit: '50', ...c.req.query() }, ledgerKeySchema)!;
      const page = await tools.ledger(parse(idSchema, c.req.param('id')), ask);
      if (!page) throw notFound('Tool');
      return c.json(page);
    })
    .put('/tool/update/:id', adminOnly(deps), async (c) => {
      const { availableQuantity } = await jsonBody(c, restockSchema);
      const matchedCount = await tools.restock(parse(idSchema, c.req.param('id')), availableQuantity, c.get('user').email);
      if (!matchedCount) throw notFound('Tool');
      return c.json({ acknowledged: true, matchedCount, modifiedCount: matchedCount });
    });
}
