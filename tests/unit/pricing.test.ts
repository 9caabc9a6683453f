import { describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages';
import {
  nextBreakHint,
  nextBreakText,
  priceTableText,
  priceTiers,
  pricingOfTool,
  unitPriceCents,
} from '../../src/lib/pricing';
import { quantityError, quantityInput, quoteQuantityError } from '../../src/lib/rules';

// The example: 10–99 at $12.40, 100–499 at $11.20, 500+ at $9.90.
const tool = {
  priceCents: 1240,
  minimumOrderQuantity: 10,
  priceBreaks: [
    { minQuantity: 100, priceCents: 1120 },
    { minQuantity: 500, priceCents: 990 },
  ],
  packSize: 1,
};

describe('price breaks', () => {
  it('prices a quantity below, at and above each break', () => {
    expect(unitPriceCents(tool, 10)).toBe(1240);
    expect(unitPriceCents(tool, 99)).toBe(1240);
    expect(unitPriceCents(tool, 100)).toBe(1120);
    expect(unitPriceCents(tool, 101)).toBe(1120);
    expect(unitPriceCents(tool, 499)).toBe(1120);
    expect(unitPriceCents(tool, 500)).toBe(990);
    expect(unitPriceCents(tool, 10_000)).toBe(990);
  });

  it('a tool without breaks has one price', () => {
    expect(unitPriceCents({ priceCents: 500, priceBreaks: [] }, 1_000)).toBe(500);
    expect(priceTiers({ priceCents: 500, minimumOrderQuantity: 5, priceBreaks: [] })).toEqual([
      { from: 5, to: null, priceCents: 500 },
    ]);
  });

  it('lists the tiers from the minimum order, the last one open', () => {
    expect(priceTiers(tool)).toEqual([
      { from: 10, to: 99, priceCents: 1240 },
      { from: 100, to: 499, priceCents: 1120 },
      { from: 500, to: null, priceCents: 990 },
    ]);
    expect(priceTableText(tool)).toBe('10–99: $12.40 · 100–499: $11.20 · 500+: $9.90');
  });

  it('hints at the next break when it is a few units away', () => {
    expect(nextBreakHint(tool, 88)).toEqual({ more: 12, priceCents: 1120 });
    expect(nextBreakText(nextBreakHint(tool, 88)!)).toBe('Add 12 more for $11.20 each');
    expect(nextBreakHint(tool, 75)).toEqual({ more: 25, priceCents: 1120 });
    // Far off (more than a quarter of the break away), at the last break, below the minimum or not a number: none.
    expect(nextBreakHint(tool, 74)).toBeNull();
    expect(nextBreakHint(tool, 100)).toBeNull();
    expect(nextBreakHint(tool, 400)).toEqual({ more: 100, priceCents: 990 });
    expect(nextBreakHint(tool, 600)).toBeNull();
    expect(nextBreakHint(tool, 9)).toBeNull();
    expect(nextBreakHint(tool, Number.NaN)).toBeNull();
  });

  it('rounds the hint up to whole packs', () => {
    const packed = { ...tool, minimumOrderQuantity: 12, packSize: 12 };
    expect(nextBreakHint(packed, 84)).toEqual({ more: 24, priceCents: 1120 });
  });

  it('reads a tool as the API serves it (dollars)', () => {
    const api = {
      price: 12.4,
      minimumOrderQuantity: 10,
      packSize: 5,
      priceBreaks: [{ minQuantity: 100, price: 11.2 }],
    };
    expect(pricingOfTool(api)).toEqual({
      priceCents: 1240,
      minimumOrderQuantity: 10,
      packSize: 5,
      priceBreaks: [{ minQuantity: 100, priceCents: 1120 }],
    });
  });
});

describe('pack sizes and quotes (issue 26)', () => {
  const packed = { minimumOrderQuantity: 24, availableQuantity: 1000, packSize: 12, quoteAbove: 480 };

  it('asks for whole packs, then a quote above the threshold, then the stock', () => {
    expect(quantityError(24, packed)).toBeNull();
    expect(quantityError(25, packed)).toBe(messages.quantityNotMultiple(12));
    expect(messages.quantityNotMultiple(12)).toBe('*Quantity must be a multiple of 12');
    expect(quantityError(12, packed)).toBe(messages.quantityBelowMinimum);
    expect(quantityError(480, packed)).toBeNull();
    expect(quantityError(492, packed)).toBe(messages.quantityNeedsQuote(480));
    expect(messages.quantityNeedsQuote(480)).toBe('*For more than 480 units, please ask for a quote');
    expect(quantityError(480, { ...packed, availableQuantity: 100 })).toBe(messages.quantityAboveAvailable);
  });

  it('a quote keeps the minimum and the packs, not the stock', () => {
    const soldOut = { ...packed, availableQuantity: 0 };
    expect(quoteQuantityError(6_000, soldOut)).toBeNull();
    expect(quoteQuantityError(6_001, packed)).toBe(messages.quantityNotMultiple(12));
    expect(quoteQuantityError(12, packed)).toBe(messages.quantityBelowMinimum);
  });

  it('the quantity input steps by the pack', () => {
    expect(quantityInput(packed)).toMatchObject({ step: 12, min: 24 });
    expect(quantityInput({ minimumOrderQuantity: 3 })).toMatchObject({ step: 1, min: 3 });
  });
});
