import { Hono } from 'hono';
import { contactSchema } from '../../lib/schemas.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody } from '../http/validate.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { ContactService } from './contact.service.ts';

export function contactRoutes(deps: Deps, contact: ContactService) {
  return new Hono<AppEnv>().post('/contact', rateLimit(deps, { name: 'the contact form', points: 5, windowMs: 10 * 60_000, by: 'ip' }), async (c) => {
    const insertedId = await contact.add(await jsonBody(c, contactSchema));
    return c.json({ acknowledged: true, insertedId }, 201);
  });
}
