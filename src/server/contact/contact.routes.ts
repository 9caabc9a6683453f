import { Hono } from 'hono';
import { contactSchema } from '../../lib/schemas.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody } from '../http/validate.ts';
import { newId } from '../ids.ts';
import type { AppEnv, Deps } from '../types.ts';

/** 'Get In Touch': the spec shows no handling; we keep the message for the shop instead of dropping it. */
export function contactRoutes(deps: Deps) {
  return new Hono<AppEnv>().post('/contact', rateLimit(deps, { name: 'the contact form', points: 5, windowMs: 10 * 60_000, by: 'ip' }), async (c) => {
    const input = await jsonBody(c, contactSchema);
    const insertedId = newId();
    await deps.db.query('INSERT INTO contact_messages (id, name, email, message) VALUES ($1, $2, $3, $4)', [
      insertedId,
      input.name,
      input.email,
      input.message,
    ]);
    return c.json({ acknowledged: true, insertedId }, 201);
  });
}
