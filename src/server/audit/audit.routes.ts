import { Hono } from 'hono';
import { auditQuerySchema } from '../../lib/schemas.ts';
import { adminOnly } from '../auth/guards.ts';
import { decodeCursor, seqKeySchema } from '../http/paging.ts';
import { parse } from '../http/validate.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { AuditService } from './audit.service.ts';

/** Admins read the log; there is no route that writes, edits or deletes it (those calls are 404s). */
export function auditRoutes(deps: Deps, audit: AuditService) {
  return new Hono<AppEnv>().get('/audit', adminOnly(deps), async (c) => {
    const { limit, cursor, type } = parse(auditQuerySchema, c.req.query());
    return c.json(await audit.page({ limit, after: cursor === undefined ? undefined : decodeCursor(cursor, seqKeySchema) }, type));
  });
}
