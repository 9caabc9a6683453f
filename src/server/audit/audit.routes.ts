import { auditContract } from '../../lib/contracts/audit.ts';
import { adminOnly } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import { decodeCursor, seqKeySchema } from '../db/paging.ts';
import type { Deps } from '../types.ts';
import type { AuditService } from './audit.service.ts';

/** Admins read the log; there is no route that writes, edits or deletes it (those calls are 404s). */
export function auditRoutes(deps: Deps, audit: AuditService) {
  return contractRouter(deps).on(auditContract.list, adminOnly(deps), async (_c, { query: { limit, cursor, type } }) =>
    audit.page({ limit, after: cursor === undefined ? undefined : decodeCursor(cursor, seqKeySchema) }, type),
  ).app;
}
