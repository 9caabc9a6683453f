// The rows emails and invoices print above an order's total (issue 27): none for a plain total (orders
// placed before the breakdown existed read as before), else subtotal, discount, delivery and VAT.
import { describe, expect, it } from 'vitest';
import { formatCents } from '../../src/lib/money';
import { breakdownOf, breakdownRows, orderTotals } from '../../src/lib/totals';

const settings = {
  deliveryFlatCents: 500,
  freeDeliveryOverCents: null,
  vatRateHundredths: 1500,
  pricesIncludeVat: false,
};

describe('breakdownRows', () => {
  it('gives no rows for a plain total or none at all', () => {
    const plain = orderTotals([{ quantity: 2, unitCents: 1000 }], {
      ...settings,
      deliveryFlatCents: 0,
      vatRateHundredths: 0,
    });
    expect(breakdownRows(breakdownOf(plain, null), formatCents)).toEqual([]);
    expect(breakdownRows(undefined, formatCents)).toEqual([]);
  });

  it('lists subtotal, the code, delivery and the VAT added', () => {
    const t = orderTotals([{ quantity: 2, unitCents: 1000 }], settings, { percentOffHundredths: 1000 });
    expect(breakdownRows(breakdownOf(t, 'TRADE10'), formatCents)).toEqual([
      ['Subtotal', '$20.00'],
      ['Discount (TRADE10)', '-$2.00'],
      ['Delivery', '$5.00'],
      ['VAT 15%', '$3.45'],
    ]);
  });

  it('names the VAT share already in the prices, and a rate with decimals', () => {
    const t = orderTotals([{ quantity: 1, unitCents: 11_750 }], {
      ...settings,
      deliveryFlatCents: 0,
      vatRateHundredths: 1750,
      pricesIncludeVat: true,
    });
    expect(breakdownRows(breakdownOf(t, null), formatCents)).toEqual([
      ['Subtotal', '$117.50'],
      ['Includes VAT 17.5%', '$17.50'],
    ]);
  });
});
