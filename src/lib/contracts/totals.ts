// What a cart would cost (issue 27), before anything is placed.
import { totalsBreakdownSchema } from '../entities.ts';
import { totalsAskSchema } from '../schemas.ts';
import { post, refusal } from './route.ts';

export const totalsContract = {
  quote: post('/quote-totals', 'What these lines would cost, with this discount code', {
    description:
      'The same pricing (price breaks), delivery, VAT and code checks as placing the order; the code is only looked at, not claimed. A signed-in caller (bearer) is checked for once-per-customer codes.',
    body: { schema: totalsAskSchema },
    responses: {
      200: { description: 'The amounts, in cents', schema: totalsBreakdownSchema },
      422: refusal('A tool gone, or a code that does not apply: `error.fields` says which and why'),
    },
  }),
};
