// The admin's Emails screen: every email the store made, newest first, with its state (sent, kept
// without SMTP, failed with the error), and Resend.
import { emailsContract } from '../../lib/contracts/emails.ts';
import { adminOnly } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import { notFound } from '../errors.ts';
import { pageAsk, seqKeySchema } from '../db/paging.ts';
import type { Deps } from '../types.ts';
import type { EmailsService } from './emails.service.ts';

export function emailsRoutes(deps: Deps, emails: EmailsService) {
  return contractRouter(deps)
    .on(emailsContract.list, adminOnly(deps), async (_c, { query }) => emails.page(pageAsk(query, seqKeySchema)!))
    .on(emailsContract.resend, adminOnly(deps), async (c, { params: { id } }) => {
      if (!(await emails.get(id))) throw notFound('Email');
      // A failed send is a 502 (the error is kept on the row); sent or kept, the row as it now is.
      const row = await emails.resend(id).catch(() => emails.get(id));
      return row?.state === 'failed' ? c.json(row, 502) : row!;
    }).app;
}
