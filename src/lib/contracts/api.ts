// The whole API, one contract group per feature: the server binds every contract of it (a test checks
// that each is bound and that no route is bound without one), the OpenAPI document tags each call by its
// group, and the browser's client is shaped by it: api.<group>.<name>(…) (src/client/infra/api.ts).
import { accountContract } from './account.ts';
import { auditContract } from './audit.ts';
import { contactContract } from './contact.ts';
import { discountsContract } from './discounts.ts';
import { emailsContract } from './emails.ts';
import { exchangeContract } from './exchange.ts';
import { imagesContract } from './images.ts';
import { metaContract } from './meta.ts';
import { ordersContract } from './orders.ts';
import { paymentsContract } from './payments.ts';
import { quotesContract } from './quotes.ts';
import { reviewsContract } from './reviews.ts';
import { settingsContract } from './settings.ts';
import { toolsContract } from './tools.ts';
import { totalsContract } from './totals.ts';
import { usersContract } from './users.ts';
import { webhooksContract } from './webhooks.ts';

export const apiContracts = {
  tools: toolsContract,
  users: usersContract,
  orders: ordersContract,
  payments: paymentsContract,
  reviews: reviewsContract,
  account: accountContract,
  images: imagesContract,
  quotes: quotesContract,
  contact: contactContract,
  audit: auditContract,
  settings: settingsContract,
  discounts: discountsContract,
  totals: totalsContract,
  exchange: exchangeContract,
  emails: emailsContract,
  webhooks: webhooksContract,
  meta: metaContract,
};
export type ApiContracts = typeof apiContracts;
