import { Hono } from 'hono';
import { idSchema, restockSchema, toolInputSchema, type ToolInput } from '../../lib/schemas';
import { adminOnly } from '../auth/guards';
import { notFound } from '../http/errors';
import { cachedJson } from '../http/cache';
import { jsonBody, parse } from '../http/validate';
import type { AppEnv, Deps } from '../types';
import type { ToolsService } from './tools.service';

export function toolsRoutes(deps: Deps, tools: ToolsService) {
  return new Hono<AppEnv>()
    .get('/tools', async (c) => cachedJson(c, await tools.list()))
    .get('/tools/:id', async (c) => {
      const tool = await tools.get(c.req.param('id'));
      if (!tool) throw notFound('Tool');
      return cachedJson(c, tool);
    })
    .post('/tools', adminOnly(deps), async (c) => {
      const input = (await jsonBody(c, toolInputSchema)) as ToolInput;
      const insertedId = await tools.create(input);
      return c.json({ acknowledged: true, insertedId }, 201);
    })
    .delete('/tools/dlt/:id', adminOnly(deps), async (c) => {
      const deletedCount = await tools.remove(parse(idSchema, c.req.param('id')));
      if (!deletedCount) throw notFound('Tool');
      return c.json({ acknowledged: true, deletedCount });
    })
    .put('/tool/update/:id', adminOnly(deps), async (c) => {
      const { availableQuantity } = await jsonBody(c, restockSchema);
      const matchedCount = await tools.restock(parse(idSchema, c.req.param('id')), availableQuantity);
      if (!matchedCount) throw notFound('Tool');
      return c.json({ acknowledged: true, matchedCount, modifiedCount: matchedCount });
    });
}
