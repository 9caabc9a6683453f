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
import { refusal, route } from './route.ts';
import { deletedSchema, emailParams, idParams, insertedSchema, updatedSchema } from './shared.ts';

const noOrder = refusal('No such order');
const notYours = refusal("Not the buyer's, nor an admin's");
const placed = {
  201: { description: 'Placed, unpaid: its units are held for ORDER_HOLD_MINUTES', schema: insertedSchema },
  404: refusal('No such tool'),
  409: refusal('Too many unpaid orders, or a discount code no longer usable'),
  422: refusal(
    "A quantity the spec's rules refuse (below the minimum, above the stock …): `error.fields` names the line",
  ),
};
const changedOrder = updatedSchema.extend({ order: orderSchema });

export const ordersContract = {
  create: route({
    method: 'post',
    path: '/booking',
    summary: 'Order one tool',
    description:
      "The spec's call. Name, email and price come from the server (any the body sends are dropped); the stock is taken in the same transaction. The spec's client reads `acknowledged`.",
    body: { schema: orderInputSchema },
    responses: placed,
  }),
  placeCart: route({
    method: 'post',
    path: '/orders',
    summary: 'Order a cart',
    description:
      'One order with a line per tool, all or nothing: a line that cannot be met refuses the whole order (422 naming the tool).',
    body: { schema: cartOrderInputSchema },
    responses: placed,
  }),
  list: route({
    method: 'get',
    path: '/booking',
    summary: 'Every order, or a page of the orders found',
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
  ofUser: route({
    method: 'get',
    path: '/booking/email/{email}',
    summary: "A user's orders, or a page of them",
    params: emailParams,
    query: pagingQuerySchema,
    responses: {
      200: {
        description: 'The orders, or a page of them',
        schema: z.union([z.array(orderSchema), listPageSchema(orderSchema)]),
      },
    },
  }),
  get: route({
    method: 'get',
    path: '/booking/{id}',
    summary: 'One order, with its history and documents',
    params: idParams,
    responses: { 200: { description: 'The order', schema: orderDetailSchema }, 403: notYours, 404: noOrder },
  }),
  invoice: route({
    method: 'get',
    path: '/booking/{id}/invoice',
    summary: "An order's invoice (PDF)",
    params: idParams,
    responses: {
      200: { description: 'The invoice', type: 'application/pdf', file: true },
      403: notYours,
      404: noOrder,
      409: refusal('Not paid yet: no invoice'),
    },
  }),
  remove: route({
    method: 'delete',
    path: '/booking/dlt/{id}',
    summary: 'Delete an unpaid order',
    description: "Its buyer's while unpaid (its units go back to stock), or an admin's.",
    params: idParams,
    responses: {
      200: { description: 'Deleted', schema: deletedSchema },
      403: notYours,
      404: noOrder,
      409: refusal('Paid meanwhile: kept'),
    },
  }),
  ship: route({
    method: 'put',
    path: '/booking/ship/{id}',
    summary: 'Mark a paid order shipped',
    description: "The spec's call sends no body; the ship form sends the carrier and tracking number.",
    params: idParams,
    body: { schema: shipmentSchema, optional: true },
    responses: {
      200: { description: 'Shipped', schema: changedOrder },
      404: noOrder,
      409: refusal('Not paid, or shipped already'),
    },
  }),
  deliver: route({
    method: 'put',
    path: '/booking/deliver/{id}',
    summary: 'Mark a shipped order delivered',
    params: idParams,
    responses: {
      200: { description: 'Delivered', schema: changedOrder },
      404: noOrder,
      409: refusal('Not shipped, or delivered already'),
    },
  }),
  refund: route({
    method: 'put',
    path: '/booking/refund/{id}',
    summary: "Give back a paid order's money",
    description:
      'All that is left, or `amount` dollars of it; with `restock`, its units go back to the stock (once per order).',
    params: idParams,
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
