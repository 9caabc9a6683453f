import { Hono } from 'hono';
import { idSchema, restockSchema, toolInputSchema, type ToolInput } from '../../lib/schemas.ts';
import { adminOnly } from '../auth/guards.ts';
import { notFound } from '../http/errors.ts';
import { cachedJson } from '../http/cache.ts';
import { jsonBody, parse } from '../http/validate.ts';
import { pageAsk, seqKeySchema } from '../http/paging.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { ToolsService } from './tools.service.ts';

export function toolsRoutes(deps: Deps, tools: ToolsService) {
  return new Hono<AppEnv>()
    // With limit or cursor (the admin's product list), a page and the total, read fresh; without, the
    // whole catalogue as the storefront reads it, from memory.
    .get('/tools', async (c) => {
      const ask = pageAsk(c.req.query(), seqKeySchema);
      if (ask) {
        c.header('Cache-Control', 'no-store');
        return c.json(await tools.page(ask));
      }
      return cachedJson(c, await tools.list());
    })
    .get('/tools/:id', async (c) => {
      const tool = await tools.get(c.req.param('id'));
      if (!tool) throw notFound('Tool');
      return cachedJson(c, tool);
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
    .put('/tool/update/:id', adminOnly(deps), async (c) => {
      const { availableQuantity } = await jsonBody(c, restockSchema);
      const matchedCount = await tools.restock(parse(idSchema, c.req.param('id')), availableQuantity, c.get('user').email);
      if (!matchedCount) throw notFound('Tool');
      return c.json({ acknowledged: true, matchedCount, modifiedCount: matchedCount });
    });
}
