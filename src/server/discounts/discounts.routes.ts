import { Hono } from 'hono';
import { discountInputSchema, idSchema } from '../../lib/schemas.ts';
import { adminOnly } from '../auth/guards.ts';
import { notFound } from '../http/errors.ts';
import { jsonBody, parse } from '../http/validate.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { DiscountsService } from './discounts.service.ts';

/** The Discounts screen's calls, all admin only. */
export function discountsRoutes(deps: Deps, discounts: DiscountsService) {
  return new Hono<AppEnv>()
    .get('/discounts', adminOnly(deps), async (c) => c.json(await discounts.list()))
    .post('/discounts', adminOnly(deps), async (c) => {
      const insertedId = await discounts.create(await jsonBody(c, discountInputSchema), c.get('user').email);
      return c.json({ acknowledged: true, insertedId }, 201);
    })
    .delete('/discounts/:id', adminOnly(deps), async (c) => {
      if (!(await discounts.remove(parse(idSchema, c.req.param('id')), c.get('user').email))) throw notFound('Discount code');
      return c.json({ acknowledged: true, deletedCount: 1 });
    });
}
