// The home page's 'Get In Touch' form and the admins' inbox.
import { contactPageSchema } from '../entities.ts';
import { contactReadSchema, contactSchema, listPageQuerySchema } from '../schemas.ts';
import { get, post, put, refusal } from './route.ts';
import { changed, created } from './shared.ts';

export const contactContract = {
  send: post('/contact', "Send a message ('Get In Touch')", {
    body: { schema: contactSchema },
    responses: { 201: created('Received') },
  }),
  inbox: get('/contact', 'A page of the messages, newest first, with the unread count', {
    query: listPageQuerySchema,
    responses: { 200: { description: 'The page', schema: contactPageSchema } },
  }),
  markRead: put('/contact/{id}/read', 'Mark a message read, or unread again', {
    body: { schema: contactReadSchema },
    responses: { 200: changed(), 404: refusal('No such message') },
  }),
};
