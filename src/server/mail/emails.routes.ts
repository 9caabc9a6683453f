// The admin's Emails screen: every email the store made, newest first, with its state (sent, kept
// without SMTP, failed with the error), and Resend.
import { Hono } from 'hono';
import { idSchema } from '../../lib/schemas.ts';
import { adminOnly } from '../auth/guards.ts';
import { notFound } from '../http/errors.ts';
import { pageAsk, seqKeySchema } from '../http/paging.ts';
import { parse } from '../http/validate.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { EmailsService } from './emails.service.ts';

export function emailsRoutes(deps: Deps, emails: EmailsService) {
  return new Hono<AppEnv>()
    .get('/emails', adminOnly(deps), async (c) => {
      const ask = pageAsk({ limit: '20', ...c.req.query() }, seqKeySchema)!;
      return c.json(await emails.page(ask));
    })
    .post('/emails/:id/resend', adminOnly(deps), async (c) => {
      const id = parse(idSchema, c.req.param('id'));
      if (!(await emails.get(id))) throw notFound('Email');
      // A failed send is a 502 (the error is kept on the row); sent or kept, the row as it now is.
      const row = await emails.resend(id).catch(() => emails.get(id));
      return c.json(row, row?.state === 'failed' ? 502 : 200);
    });
}
