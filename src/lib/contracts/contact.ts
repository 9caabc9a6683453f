// The home page's 'Get In Touch' form and the admins' inbox.
import { contactPageSchema } from '../entities.ts';
import { contactReadSchema, contactSchema, listPageQuerySchema } from '../schemas.ts';
import { refusal, route } from './route.ts';
import { idParams, insertedSchema, updatedSchema } from './shared.ts';

export const contactContract = {
  send: route({
    method: 'post',
    path: '/contact',
    summary: "Send a message ('Get In Touch')",
    body: { schema: contactSchema },
    responses: { 201: { description: 'Received', schema: insertedSchema } },
  }),
  inbox: route({
    method: 'get',
    path: '/contact',
    summary: 'A page of the messages, newest first, with the unread count',
    query: listPageQuerySchema,
    responses: { 200: { description: 'The page', schema: contactPageSchema } },
  }),
  markRead: route({
    method: 'put',
    path: '/contact/{id}/read',
    summary: 'Mark a message read, or unread again',
    params: idParams,
    body: { schema: contactReadSchema },
    responses: { 200: { description: 'Changed', schema: updatedSchema }, 404: refusal('No such message') },
  }),
};
