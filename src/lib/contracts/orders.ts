// Orders: placing one (a tool, or a cart), reading them, and after the sale: shipping, delivery,
// refunds and the invoice.
import { z } from 'zod';
import { listPageSchema, orderDetailSchema, orderSchema } from '../entities.ts';
import {
  cartOrderInputSchema,
  orderInputSchema,
  orderListQuerySchema,
  pagingQuerySchema,
  refundSchema,
  shipmentSchema,
} from '../schemas.ts';
import { del, get, post, put, refusal } from './route.ts';
import { created, deleted, updatedSchema } from './shared.ts';

const noOrder = refusal('No such order');
const notYours = refusal("Not the buyer's, nor an admin's");
const placed = {
  201: created('Placed, unpaid: its units are held for ORDER_HOLD_MINUTES'),
  404: refusal('No such tool'),
  409: refusal('Too many unpaid orders, or a discount code no longer usable'),
  422: refusal(
    "A quantity the spec's rules refuse (below the minimum, above the stock …): `error.fields` names the line",
  ),
};
const changedOrder = updatedSchema.extend({ order: orderSchema });

export const ordersContract = {
  create: post('/booking', 'Order one tool', {
    description:
      "The spec's call. Name, email and price come from the server (any the body sends are dropped); the stock is taken in the same transaction. The spec's client reads `acknowledged`.",
    body: { schema: orderInputSchema },
    responses: placed,
  }),
  placeCart: post('/orders', 'Order a cart', {
    description:
      'One order with a line per tool, all or nothing: a line that cannot be met refuses the whole order (422 naming the tool).',
    body: { schema: cartOrderInputSchema },
    responses: placed,
  }),
  list: get('/booking', 'Every order, or a page of the orders found', {
    description:
      "Without any of these query fields, every order (the spec's array); with any, a page of the matching orders and how many match.",
    query: orderListQuerySchema,
    responses: {
      200: {
        description: 'The orders, or a page of them',
        schema: z.union([z.array(orderSchema), listPageSchema(orderSchema)]),
      },
    },
  }),
  ofUser: get('/booking/email/{email}', "A user's orders, or a page of them", {
    query: pagingQuerySchema,
    responses: {
      200: {
        description: 'The orders, or a page of them',
        schema: z.union([z.array(orderSchema), listPageSchema(orderSchema)]),
      },
    },
  }),
  get: get('/booking/{id}', 'One order, with its history and documents', {
    responses: { 200: { description: 'The order', schema: orderDetailSchema }, 403: notYours, 404: noOrder },
  }),
  invoice: get('/booking/{id}/invoice', "An order's invoice (PDF)", {
    responses: {
      200: { description: 'The invoice', type: 'application/pdf', file: true },
      403: notYours,
      404: noOrder,
      409: refusal('Not paid yet: no invoice'),
    },
  }),
  remove: del('/booking/dlt/{id}', 'Delete an unpaid order', {
    description: "Its buyer's while unpaid (its units go back to stock), or an admin's.",
    responses: {
      200: deleted(),
      403: notYours,
      404: noOrder,
      409: refusal('Paid meanwhile: kept'),
    },
  }),
  ship: put('/booking/ship/{id}', 'Mark a paid order shipped', {
    description: "The spec's call sends no body; the ship form sends the carrier and tracking number.",
    body: { schema: shipmentSchema, optional: true },
    responses: {
      200: { description: 'Shipped', schema: changedOrder },
      404: noOrder,
      409: refusal('Not paid, or shipped already'),
    },
  }),
  deliver: put('/booking/deliver/{id}', 'Mark a shipped order delivered', {
    responses: {
      200: { description: 'Delivered', schema: changedOrder },
      404: noOrder,
      409: refusal('Not shipped, or delivered already'),
    },
  }),
  refund: put('/booking/refund/{id}', "Give back a paid order's money", {
    description:
      'All that is left, or `amount` dollars of it; with `restock`, its units go back to the stock (once per order).',
    body: { schema: refundSchema },
    responses: {
      200: {
        description: 'Refunded, with its credit note',
        schema: z.strictObject({
          acknowledged: z.literal(true),
          refund: z.strictObject({
            id: z.string(),
            amountCents: z.number().int(),
            creditNote: z.string(),
            restocked: z.boolean(),
            full: z.boolean().describe('The whole payment is given back now.'),
          }),
          order: orderDetailSchema,
        }),
      },
      404: noOrder,
      409: refusal('Not paid, or refunded already'),
      422: refusal('More than is left to refund'),
      502: refusal('The payment provider refused the refund'),
    },
  }),
};
