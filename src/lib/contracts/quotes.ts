// Quote requests (issue 26): a buyer asks a price for quantities, the shop answers, the buyer accepts
// (an order at the quoted prices) or declines.
import { z } from 'zod';
import { listPageSchema, quoteSchema } from '../entities.ts';
import { quoteAcceptSchema, quoteAnswerSchema, quoteListQuerySchema, quoteRequestSchema } from '../schemas.ts';
import { get, post, put, refusal } from './route.ts';
import { created } from './shared.ts';

const noQuote = refusal("No such quote (or not the caller's)");
const buyerOnly = refusal('Only the buyer who asked for it');
const closed = refusal('Accepted, declined or expired already');

export const quotesContract = {
  request: post('/quotes', 'Ask for a quote', {
    body: { schema: quoteRequestSchema },
    responses: {
      201: created('Asked'),
      409: refusal('Too many open quote requests'),
      422: refusal('A tool gone, or a quantity its rules refuse: `error.fields` names the line'),
    },
  }),
  list: get('/quotes', 'Your quotes (an admin: all), newest first', {
    description: 'Every one, or with `limit` or `cursor` a page; `state` keeps one state.',
    query: quoteListQuerySchema,
    responses: {
      200: {
        description: 'The quotes, or a page of them',
        schema: z.union([z.array(quoteSchema), listPageSchema(quoteSchema)]),
      },
    },
  }),
  get: get('/quotes/{id}', 'One quote', {
    responses: { 200: { description: 'The quote', schema: quoteSchema }, 404: noQuote },
  }),
  answer: put('/quotes/{id}/answer', 'Answer a quote: a unit price per line and the end of the offer', {
    description: 'A bare day as `expiresAt` offers the quote until the end of that day (UTC).',
    body: { schema: quoteAnswerSchema },
    responses: {
      200: { description: 'Answered', schema: quoteSchema },
      404: noQuote,
      409: closed,
      422: refusal("An end in the past, lines that are not the quote's, or a tool gone"),
    },
  }),
  accept: post('/quotes/{id}/accept', 'Accept a quote: an order at the quoted prices', {
    body: { schema: quoteAcceptSchema },
    responses: {
      201: created('The order placed'),
      403: buyerOnly,
      404: noQuote,
      409: closed,
      422: refusal('A tool gone, or not enough stock'),
    },
  }),
  decline: post('/quotes/{id}/decline', 'Decline a quote', {
    responses: { 200: { description: 'Declined', schema: quoteSchema }, 403: buyerOnly, 404: noQuote, 409: closed },
  }),
};
