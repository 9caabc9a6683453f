import { contactContract } from '../../lib/contracts/contact.ts';
import { adminOnly, anyone } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import { notFound } from '../errors.ts';
import { decodeCursor, seqKeySchema } from '../db/paging.ts';
import { rateLimit } from '../http/rate-limit.ts';
import type { Deps } from '../types.ts';
import type { ContactService } from './contact.service.ts';

export function contactRoutes(deps: Deps, contact: ContactService) {
  return (
    contractRouter(deps)
      // Anyone: the home page's 'Get In Touch' form.
      .on(
        contactContract.send,
        anyone,
        rateLimit(deps, { name: 'the contact form', points: 5, windowMs: 10 * 60_000, by: 'ip' }),
        async (_c, { body }) => ({ acknowledged: true, insertedId: await contact.add(body) }),
      )
      // Admins: the Messages screen, a page at a time, newest first, with the unread count.
      .on(contactContract.inbox, adminOnly(deps), async (_c, { query: { limit, cursor } }) =>
        contact.page({ limit, after: cursor === undefined ? undefined : decodeCursor(cursor, seqKeySchema) }),
      )
      .on(contactContract.markRead, adminOnly(deps), async (_c, { params, body: { read } }) => {
        const matchedCount = await contact.setRead(params.id, read);
        if (!matchedCount) throw notFound('Message');
        return { acknowledged: true, matchedCount, modifiedCount: matchedCount };
      }).app
  );
}
