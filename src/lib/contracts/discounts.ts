// Discount codes (issue 27), for the admins' Discounts screen.
import { z } from 'zod';
import { discountSchema } from '../entities.ts';
import { discountInputSchema } from '../schemas.ts';
import { refusal, route } from './route.ts';
import { deletedSchema, idParams, insertedSchema } from './shared.ts';

export const discountsContract = {
  list: route({
    method: 'get',
    path: '/discounts',
    summary: 'Every discount code, with how often it was used',
    responses: { 200: { description: 'The codes', schema: z.array(discountSchema) } },
  }),
  create: route({
    method: 'post',
    path: '/discounts',
    summary: 'Make a discount code',
    body: { schema: discountInputSchema },
    responses: { 201: { description: 'Made', schema: insertedSchema }, 409: refusal('The code exists') },
  }),
  remove: route({
    method: 'delete',
    path: '/discounts/{id}',
    summary: 'Remove a discount code',
    description: 'Orders placed with it keep their discount.',
    params: idParams,
    responses: { 200: { description: 'Removed', schema: deletedSchema }, 404: refusal('No such code') },
  }),
};
