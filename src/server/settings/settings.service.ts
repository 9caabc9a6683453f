// The shop's settings (issue 27): delivery, free delivery and VAT, one row the admin edits. Orders read
// them in their own transaction when placed, so a change applies to orders placed after it and a placed
// order keeps the amounts it was placed with.
import type { ShopSettings } from '../../lib/entities.ts';
import { toCents, toDollars } from '../../lib/money.ts';
import type { SettingsInput } from '../../lib/schemas.ts';
import type { TotalsSettings } from '../../lib/totals.ts';
import type { Db, Queryable } from '../db/client.ts';
import { emit } from '../events/events.service.ts';

export interface SettingsRow {
  delivery_flat_cents: number;
  free_delivery_over_cents: number | null;
  vat_rate_hundredths: number;
  prices_include_vat: boolean;
}

/** The settings' columns, for a statement that reads them beside other rows (one-line-batch.ts). */
export const SETTINGS_COLUMNS =
  'delivery_flat_cents, free_delivery_over_cents, vat_rate_hundredths, prices_include_vat';
const SELECT = `SELECT ${SETTINGS_COLUMNS} FROM shop_settings WHERE id = 1`;

/** The settings of a row read with SETTINGS_COLUMNS (none: the defaults). */
export const totalsOf = (r: SettingsRow | undefined): TotalsSettings => ({
  deliveryFlatCents: r?.delivery_flat_cents ?? 0,
  freeDeliveryOverCents: r?.free_delivery_over_cents ?? null,
  vatRateHundredths: r?.vat_rate_hundredths ?? 0,
  pricesIncludeVat: r?.prices_include_vat ?? false,
});

/** The settings an order is placed with, read in the caller's transaction. */
export async function readTotalsSettings(q: Queryable): Promise<TotalsSettings> {
  const [row] = await q.query<SettingsRow>(SELECT);
  return totalsOf(row);
}

/** The settings as the API shows them (dollars and a percentage). */
export const settingsJson = (s: TotalsSettings): ShopSettings => ({
  deliveryFlat: toDollars(s.deliveryFlatCents),
  freeDeliveryOver: s.freeDeliveryOverCents === null ? null : toDollars(s.freeDeliveryOverCents),
  vatRate: s.vatRateHundredths / 100,
  pricesIncludeVat: s.pricesIncludeVat,
});

export function settingsService(db: Db, options: { eventsWritten?: () => void } = {}) {
  return {
    get: async (): Promise<ShopSettings> => settingsJson(await readTotalsSettings(db)),
    /** Saves the settings with their audit event ('settings.updated', before → after) in one transaction. */
    async update(input: SettingsInput, actor: string): Promise<ShopSettings> {
      const after: TotalsSettings = {
        deliveryFlatCents: toCents(input.deliveryFlat),
        freeDeliveryOverCents: input.freeDeliveryOver === undefined ? null : toCents(input.freeDeliveryOver),
        vatRateHundredths: Math.round(input.vatRate * 100),
        pricesIncludeVat: input.pricesIncludeVat,
      };
      await db.transaction(async (tx) => {
        const [row] = await tx.query<SettingsRow>(`${SELECT} FOR UPDATE`);
        const before = totalsOf(row);
        await tx.query(
          `INSERT INTO shop_settings (id, delivery_flat_cents, free_delivery_over_cents, vat_rate_hundredths, prices_include_vat, updated_at)
           VALUES (1, $1, $2, $3, $4, now())
           ON CONFLICT (id) DO UPDATE SET delivery_flat_cents = $1, free_delivery_over_cents = $2, vat_rate_hundredths = $3,
             prices_include_vat = $4, updated_at = now()`,
          [after.deliveryFlatCents, after.freeDeliveryOverCents, after.vatRateHundredths, after.pricesIncludeVat],
        );
        await emit(tx, {
          type: 'settings.updated',
          subject: 'shop',
          actor,
          data: { target: 'Shop settings', before: settingsJson(before), after: settingsJson(after) },
        });
      });
      options.eventsWritten?.();
      return settingsJson(after);
    },
  };
}
export type SettingsService = ReturnType<typeof settingsService>;
