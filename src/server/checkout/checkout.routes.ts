// POST /quote-totals (issue 27): what a cart or the purchase form would cost, with a discount code,
// before anything is placed. The same pricing (price breaks), settings and code checks as placing; the
// code is only looked at, not claimed, so the order may still be refused if it runs out meanwhile.
import { totalsContract } from '../../lib/contracts/totals.ts';
import type { TotalsBreakdown } from '../../lib/entities.ts';
import { messages } from '../../lib/messages.ts';
import { toCents } from '../../lib/money.ts';
import { unitPriceCents } from '../../lib/pricing.ts';
import type { TotalsAsk } from '../../lib/schemas.ts';
import { orderTotals } from '../../lib/totals.ts';
import { anyone, viewer } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import type { Db } from '../db/client.ts';
import { checkDiscount } from '../discounts/discounts.service.ts';
import { notPossible } from '../errors.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { readTotalsSettings } from '../settings/settings.service.ts';
import type { ToolsService } from '../tools/tools.service.ts';
import type { Deps } from '../types.ts';

export async function previewTotals(
  db: Db,
  tools: ToolsService,
  ask: TotalsAsk,
  email: string | null,
  now: Date,
): Promise<TotalsBreakdown> {
  const lines = await Promise.all(
    ask.items.map(async (item, index) => {
      const tool = await tools.get(item.toolId);
      if (!tool) throw notPossible(messages.cartToolGone, { [`items.${index}.toolId`]: messages.cartToolGone });
      const pricing = {
        priceCents: toCents(tool.price),
        priceBreaks: tool.priceBreaks.map((b) => ({ minQuantity: b.minQuantity, priceCents: toCents(b.price) })),
      };
      return { quantity: item.quantity, unitCents: unitPriceCents(pricing, item.quantity) };
    }),
  );
  const subtotalCents = lines.reduce((sum, l) => sum + l.quantity * l.unitCents, 0);
  const discount = ask.discountCode ? await checkDiscount(db, ask.discountCode, { email, subtotalCents, now }) : null;
  const totals = orderTotals(lines, await readTotalsSettings(db), discount?.rule);
  return {
    subtotalCents: totals.subtotalCents,
    discountCents: totals.discountCents,
    deliveryCents: totals.deliveryCents,
    taxCents: totals.taxCents,
    taxIncluded: totals.taxIncluded,
    vatRate: totals.vatRateHundredths / 100,
    discountCode: discount?.code ?? null,
    totalCents: totals.totalCents,
  };
}

export function checkoutRoutes(deps: Deps, tools: ToolsService) {
  // Anyone may ask (the cart shows totals before signing in); the rate limit keeps codes from being guessed.
  return contractRouter(deps).on(
    totalsContract.quote,
    anyone,
    rateLimit(deps, { name: 'totals', points: 60, windowMs: 60_000, by: 'ip' }),
    async (c, { body }) => {
      const user = await viewer(c, deps);
      return previewTotals(deps.db, tools, body, user?.email ?? null, deps.now());
    },
  ).app;
}
