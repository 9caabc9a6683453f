// Quote requests (issue 26): a buyer asks a price for quantities, the shop answers, the buyer accepts
// (an order at the quoted prices) or declines.
import { z } from 'zod';
import { listPageSchema, quoteSchema } from '../entities.ts';
import {
  pagingQuerySchema,
  quoteAcceptSchema,
  quoteAnswerSchema,
  quoteListQuerySchema,
  quoteRequestSchema,
} from '../schemas.ts';
import { refusal, route } from './route.ts';
import { idParams, insertedSchema } from './shared.ts';

const noQuote = refusal("No such quote (or not the caller's)");
const buyerOnly = refusal('Only the buyer who asked for it');
const closed = refusal('Accepted, declined or expired already');

export const quotesContract = {
  request: route({
    method: 'post',
    path: '/quotes',
    summary: 'Ask for a quote',
    body: { schema: quoteRequestSchema },
    responses: {
      201: { description: 'Asked', schema: insertedSchema },
      409: refusal('Too many open quote requests'),
      422: refusal('A tool gone, or a quantity its rules refuse: `error.fields` names the line'),
    },
  }),
  list: route({
    method: 'get',
    path: '/quotes',
    summary: 'Your quotes (an admin: all), newest first',
    description: 'Every one, or with `limit` or `cursor` a page; `state` keeps one state.',
    query: pagingQuerySchema.extend(quoteListQuerySchema.shape),
    responses: {
      200: {
        description: 'The quotes, or a page of them',
        schema: z.union([z.array(quoteSchema), listPageSchema(quoteSchema)]),
      },
    },
  }),
  get: route({
    method: 'get',
    path: '/quotes/{id}',
    summary: 'One quote',
    params: idParams,
    responses: { 200: { description: 'The quote', schema: quoteSchema }, 404: noQuote },
  }),
  answer: route({
    method: 'put',
    path: '/quotes/{id}/answer',
    summary: 'Answer a quote: a unit price per line and the end of the offer',
    description: 'A bare day as `expiresAt` offers the quote until the end of that day (UTC).',
    params: idParams,
    body: { schema: quoteAnswerSchema },
    responses: {
      200: { description: 'Answered', schema: quoteSchema },
      404: noQuote,
      409: closed,
      422: refusal("An end in the past, lines that are not the quote's, or a tool gone"),
    },
  }),
  accept: route({
    method: 'post',
    path: '/quotes/{id}/accept',
    summary: 'Accept a quote: an order at the quoted prices',
    params: idParams,
    body: { schema: quoteAcceptSchema },
    responses: {
      201: { description: 'The order placed', schema: insertedSchema },
      403: buyerOnly,
      404: noQuote,
      409: closed,
      422: refusal('A tool gone, or not enough stock'),
    },
  }),
  decline: route({
    method: 'post',
    path: '/quotes/{id}/decline',
    summary: 'Decline a quote',
    params: idParams,
    responses: { 200: { description: 'Declined', schema: quoteSchema }, 403: buyerOnly, 404: noQuote, 409: closed },
  }),
};
