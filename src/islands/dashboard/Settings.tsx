// Settings (admin, issue 27): what every order charges besides its goods: a flat delivery charge (free
// from an amount of goods, if set), VAT and whether the listed prices include it. Saved with PUT
// /settings; orders placed before keep their amounts, so the screen says so and shows an example order.
import { useState, type FormEvent } from 'react';
import { api, errorMessage, serverFieldErrors } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import type { ShopSettings } from '../../lib/entities';
import { messages } from '../../lib/messages';
import { formatCents, toCents } from '../../lib/money';
import { fieldErrors, settingsSchema, type SettingsInput } from '../../lib/schemas';
import { orderTotals, type TotalsSettings } from '../../lib/totals';
import { decimalInput, Field } from '../ui/Field';
import { ScreenHeader } from '../ui/ScreenHeader';
import { Loaded } from '../ui/States';
import { SubmitButton } from '../ui/SubmitButton';
import { useForm } from '../ui/useForm';
import { useResource } from '../ui/useResource';

type Values = { deliveryFlat: string; freeDeliveryOver: string; vatRate: string };

const EXAMPLE_GOODS_CENTS = 100_00;

/** The settings in the units orderTotals takes: cents and hundredths of a percent. */
function totalsSettings(s: SettingsInput): TotalsSettings {
  return {
    deliveryFlatCents: toCents(s.deliveryFlat),
    freeDeliveryOverCents: s.freeDeliveryOver === undefined ? null : toCents(s.freeDeliveryOver),
    vatRateHundredths: Math.round(s.vatRate * 100),
    pricesIncludeVat: s.pricesIncludeVat,
  };
}

/** "An order of $100.00 of goods: delivery $4.99, VAT $15.75, total $120.74", as these settings charge it. */
export function exampleLine(settings: TotalsSettings): string {
  const t = orderTotals([{ quantity: 1, unitCents: EXAMPLE_GOODS_CENTS }], settings);
  const vat = t.taxIncluded ? `VAT ${formatCents(t.taxCents)} included` : `VAT ${formatCents(t.taxCents)}`;
  return `An order of ${formatCents(EXAMPLE_GOODS_CENTS)} of goods: delivery ${formatCents(t.deliveryCents)}, ${vat}, total ${formatCents(t.totalCents)}`;
}

function SettingsForm({ saved, onSaved }: { saved: ShopSettings; onSaved(settings: ShopSettings): void }) {
  const { values, setErrors, busy, setBusy, bind } = useForm<Values>({
    deliveryFlat: String(saved.deliveryFlat),
    freeDeliveryOver: saved.freeDeliveryOver === null ? '' : String(saved.freeDeliveryOver),
    vatRate: String(saved.vatRate),
  });
  const [pricesIncludeVat, setPricesIncludeVat] = useState(saved.pricesIncludeVat);
  const parsed = settingsSchema.safeParse({ ...values, pricesIncludeVat });
  // While a field does not parse, the example keeps the last saved settings rather than vanish.
  const example = exampleLine(
    parsed.success
      ? totalsSettings(parsed.data)
      : totalsSettings({ ...saved, freeDeliveryOver: saved.freeDeliveryOver ?? undefined }),
  );

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const answer = await api.settings.update({ body: parsed.data });
      toast.success(messages.settingsSaved);
      onSaved(answer);
    } catch (error) {
      setErrors(serverFieldErrors(error) ?? {});
      toast.error(errorMessage(error, messages.settingsSaveFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="settings-heading" className="card max-w-2xl p-5 sm:p-6">
      <h2 id="settings-heading" className="text-lg font-bold">
        Delivery and VAT
      </h2>
      <p className="mt-1 text-sm text-steel-600">{messages.settingsApplyLater}</p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field
          label="Delivery per order ($)"
          {...decimalInput()}
          hint="0 for free delivery"
          {...bind('deliveryFlat')}
        />
        <Field
          label="Free delivery from ($, optional)"
          {...decimalInput()}
          hint="Goods after the discount; empty: never free"
          {...bind('freeDeliveryOver')}
        />
        <Field label="VAT rate (%)" {...decimalInput()} max={100} hint="e.g. 15; 0 for none" {...bind('vatRate')} />
        <div className="flex items-start gap-2 sm:pt-7">
          <input
            id="field-pricesIncludeVat"
            type="checkbox"
            checked={pricesIncludeVat}
            disabled={busy}
            onChange={(e) => setPricesIncludeVat(e.target.checked)}
            aria-describedby="pricesIncludeVat-hint"
            className="mt-0.5 h-4 w-4 shrink-0 accent-amber-dark"
          />
          <div>
            <label htmlFor="field-pricesIncludeVat" className="text-sm font-medium text-steel-700">
              Prices include VAT
            </label>
            <p id="pricesIncludeVat-hint" className="text-xs text-steel-600">
              The listed prices contain VAT; invoices show its share.
            </p>
          </div>
        </div>
      </div>
      <p
        className="mt-5 rounded-md bg-steel-50 p-3 text-sm font-medium text-ink ring-1 ring-steel-200 ring-inset"
        aria-live="polite"
        data-testid="settings-example"
      >
        {example}
      </p>
      <div className="mt-6">
        <SubmitButton busy={busy} busyLabel="Saving…">
          Save settings
        </SubmitButton>
      </div>
    </form>
  );
}

export default function Settings(_props: { params: Record<string, string> }) {
  const settings = useResource(api.settings.get, {}, 'Could not load the settings. Please try again.');
  return (
    <>
      <ScreenHeader title="Settings">What every order charges besides its goods: delivery and VAT.</ScreenHeader>
      <Loaded data={settings.data} error={settings.error} onRetry={settings.reload} label="Loading settings…">
        {(saved) => <SettingsForm saved={saved} onSaved={(next) => settings.update(() => next)} />}
      </Loaded>
    </>
  );
}
