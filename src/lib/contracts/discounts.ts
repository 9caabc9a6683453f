// Discount codes (issue 27), for the admins' Discounts screen.
import { z } from 'zod';
import { discountSchema } from '../entities.ts';
import { discountInputSchema } from '../schemas.ts';
import { del, get, post, refusal } from './route.ts';
import { created, deleted } from './shared.ts';

export const discountsContract = {
  list: get('/discounts', 'Every discount code, with how often it was used', {
    responses: { 200: { description: 'The codes', schema: z.array(discountSchema) } },
  }),
  create: post('/discounts', 'Make a discount code', {
    body: { schema: discountInputSchema },
    responses: { 201: created('Made'), 409: refusal('The code exists') },
  }),
  remove: del('/discounts/{id}', 'Remove a discount code', {
    description: 'Orders placed with it keep their discount.',
    responses: { 200: deleted('Removed'), 404: refusal('No such code') },
  }),
};
