// The signed-in user's own account (issue 24): everything the store keeps about it, or its deletion.
// Both act on the caller only: no email in the path points at anyone else.
import { accountExportSchema } from '../entities.ts';
import { accountDeletionSchema } from '../schemas.ts';
import { del, get, refusal } from './route.ts';
import { deleted } from './shared.ts';

export const accountContract = {
  remove: del('/account', 'Delete your account', {
    description:
      'With a Firebase ID token from a sign-in moments ago. Unpaid orders are let go; paid orders are kept without your name (the shop must keep its invoices).',
    body: { schema: accountDeletionSchema },
    responses: {
      200: deleted(),
      403: refusal("Not freshly signed in again, or a shop's owner"),
      404: refusal('No such user'),
      409: refusal('Orders changed meanwhile, or the last admin'),
      502: refusal('The sign-in account could not be deleted; nothing was'),
    },
  }),
  export: get('/account/export', 'Download everything the store keeps about you', {
    description: 'A JSON file: the profile, every order and every review.',
    responses: { 200: { description: 'The file', schema: accountExportSchema, file: true } },
  }),
};
