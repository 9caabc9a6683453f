// Outgoing webhooks (issue 29): the admins' Webhooks screen. The secret is answered once, on creation.
import { z } from 'zod';
import { webhookDeliverySchema, webhookEndpointSchema, listPageSchema } from '../entities.ts';
import { idSchema, listPageQuery, webhookDeliveryIdSchema, webhookInputSchema } from '../schemas.ts';
import { del, get, post, refusal } from './route.ts';
import { deleted } from './shared.ts';

const createdSchema = z
  .strictObject({
    id: idSchema,
    secret: z.string().describe('whsec_ + base64 of 32 random bytes: the signing key, shown this once.'),
  })
  .meta({ id: 'WebhookCreated' });

export const webhooksContract = {
  list: get('/webhooks', 'Every webhook endpoint, with its state and what waits for it', {
    responses: { 200: { description: 'The endpoints', schema: z.array(webhookEndpointSchema) } },
  }),
  create: post('/webhooks', 'Add an endpoint: its URL and the events it wants', {
    description: 'https in production; no loopback, private or link-local address unless WEBHOOK_ALLOW_PRIVATE=1.',
    body: { schema: webhookInputSchema },
    responses: {
      201: { description: 'Added, with its secret', schema: createdSchema },
      409: refusal('Too many endpoints'),
      422: refusal('The address may not be called: not https in production, a private or loopback address, or none'),
    },
  }),
  remove: del('/webhooks/{id}', 'Delete an endpoint: nothing more is sent to it', {
    responses: { 200: deleted(), 404: refusal('No such endpoint') },
  }),
  resume: post('/webhooks/{id}/resume', 'Resume a paused endpoint: what waited is sent', {
    responses: { 200: { description: 'Resumed', schema: webhookEndpointSchema }, 404: refusal('No such endpoint') },
  }),
  deliveries: get('/webhooks/{id}/deliveries', "A page of an endpoint's deliveries, newest first", {
    query: listPageQuery(20),
    responses: {
      200: { description: 'The page', schema: listPageSchema(webhookDeliverySchema) },
      404: refusal('No such endpoint'),
    },
  }),
  replay: post('/webhooks/{id}/deliveries/{deliveryId}/replay', 'Send a delivery again now, with the same webhook-id', {
    params: z.object({ id: idSchema, deliveryId: webhookDeliveryIdSchema }),
    responses: {
      200: { description: 'Queued', schema: webhookDeliverySchema },
      404: refusal('No such endpoint or delivery'),
      409: refusal('The endpoint is paused: resume it first'),
    },
  }),
};
