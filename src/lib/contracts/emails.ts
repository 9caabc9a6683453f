// The admins' Emails screen: every email the store made, and Resend.
import { listPageSchema, storeEmailSchema } from '../entities.ts';
import { listPageQuery } from '../schemas.ts';
import { refusal, route } from './route.ts';
import { idParams } from './shared.ts';

export const emailsContract = {
  list: route({
    method: 'get',
    path: '/emails',
    summary: 'A page of the emails, newest first, with their state',
    query: listPageQuery(20),
    responses: { 200: { description: 'The page', schema: listPageSchema(storeEmailSchema) } },
  }),
  resend: route({
    method: 'post',
    path: '/emails/{id}/resend',
    summary: 'Send an email again',
    params: idParams,
    responses: {
      200: { description: 'Sent (or kept, without SMTP): the email as it now is', schema: storeEmailSchema },
      404: refusal('No such email'),
      502: { description: 'The send failed: the email with its error', schema: storeEmailSchema },
    },
  }),
};
