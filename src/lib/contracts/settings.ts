// What an order charges besides its goods (issue 27): delivery and VAT.
import { shopSettingsSchema } from '../entities.ts';
import { settingsSchema } from '../schemas.ts';
import { get, put } from './route.ts';

export const settingsContract = {
  get: get('/settings', 'Delivery and VAT', {
    description: 'Read fresh: a change applies to the next order at once.',
    responses: { 200: { description: 'The settings', schema: shopSettingsSchema } },
  }),
  update: put('/settings', 'Change delivery and VAT', {
    description: 'For every order placed after it.',
    body: { schema: settingsSchema },
    responses: { 200: { description: 'The settings now', schema: shopSettingsSchema } },
  }),
};
