// The admins' Emails screen: every email the store made, and Resend.
import { listPageSchema, storeEmailSchema } from '../entities.ts';
import { listPageQuery } from '../schemas.ts';
import { get, post, refusal } from './route.ts';

export const emailsContract = {
  list: get('/emails', 'A page of the emails, newest first, with their state', {
    query: listPageQuery(20),
    responses: { 200: { description: 'The page', schema: listPageSchema(storeEmailSchema) } },
  }),
  resend: post('/emails/{id}/resend', 'Send an email again', {
    responses: {
      200: { description: 'Sent (or kept, without SMTP): the email as it now is', schema: storeEmailSchema },
      404: refusal('No such email'),
      502: { description: 'The send failed: the email with its error', schema: storeEmailSchema },
    },
  }),
};
