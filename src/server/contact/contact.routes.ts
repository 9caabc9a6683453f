import { Hono } from 'hono';
import { contactReadSchema, contactSchema, idSchema, listPageQuerySchema } from '../../lib/schemas.ts';
import { adminOnly } from '../auth/guards.ts';
import { notFound } from '../http/errors.ts';
import { decodeCursor, seqKeySchema } from '../http/paging.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody, parse } from '../http/validate.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { ContactService } from './contact.service.ts';

export function contactRoutes(deps: Deps, contact: ContactService) {
  return (
    new Hono<AppEnv>()
      // Anyone: the home page's 'Get In Touch' form.
      .post('/contact', rateLimit(deps, { name: 'the contact form', points: 5, windowMs: 10 * 60_000, by: 'ip' }), async (c) => {
        const insertedId = await contact.add(await jsonBody(c, contactSchema));
        return c.json({ acknowledged: true, insertedId }, 201);
      })
      // Admins: the Messages screen, a page at a time, newest first, with the unread count.
      .get('/contact', adminOnly(deps), async (c) => {
        const { limit, cursor } = parse(listPageQuerySchema, c.req.query());
        return c.json(await contact.page({ limit, after: cursor === undefined ? undefined : decodeCursor(cursor, seqKeySchema) }));
      })
      .put('/contact/:id/read', adminOnly(deps), async (c) => {
        const { read } = await jsonBody(c, contactReadSchema);
        const matchedCount = await contact.setRead(parse(idSchema, c.req.param('id')), read);
        if (!matchedCount) throw notFound('Message');
        return c.json({ acknowledged: true, matchedCount, modifiedCount: matchedCount });
      })
  );
}
