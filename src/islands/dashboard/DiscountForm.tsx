// The Discounts screen's create form (issue 27): a code worth a percentage or an amount off the goods,
// with its optional limits, checked with the server's schema before POST /discounts.
import { useState, type FormEvent } from 'react';
import { api, errorMessage, httpStatus, serverFieldErrors } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import { messages } from '../../lib/messages';
import { discountInputSchema, fieldErrors } from '../../lib/schemas';
import { CheckboxField, decimalInput, Field, wholeInput } from '../ui/Field';
import { SubmitButton } from '../ui/SubmitButton';
import { useForm } from '../ui/useForm';

type Values = {
  code: string;
  value: string;
  minSubtotal: string;
  startsAt: string;
  expiresAt: string;
  maxUses: string;
};
type Kind = 'percent' | 'amount';

const EMPTY: Values = { code: '', value: '', minSubtotal: '', startsAt: '', expiresAt: '', maxUses: '' };

/** The schema's messages on the field that shows them: percentOff and amountOff are the one value field. */
function onFields(errors: Record<string, string>): Record<string, string> {
  const { percentOff, amountOff, ...rest } = errors;
  const value = percentOff || amountOff;
  return value ? { ...rest, value } : rest;
}

export function DiscountForm({ onCreated }: { onCreated(): void }) {
  const { values, setValues, setErrors, busy, setBusy, bind } = useForm<Values>(EMPTY);
  const [kind, setKind] = useState<Kind>('percent');
  const [oncePerCustomer, setOncePerCustomer] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const { value, ...rest } = values;
    const parsed = discountInputSchema.safeParse({
      ...rest,
      [kind === 'percent' ? 'percentOff' : 'amountOff']: value,
      oncePerCustomer,
    });
    if (!parsed.success) return setErrors(onFields(fieldErrors(parsed.error)));
    setBusy(true);
    try {
      await api.discounts.create({ body: parsed.data });
      toast.success(messages.discountCreated(parsed.data.code));
      setValues(EMPTY);
      setOncePerCustomer(false);
      onCreated();
    } catch (error) {
      const message = errorMessage(error, messages.discountCreateFailed);
      setErrors(httpStatus(error) === 409 ? { code: message } : onFields(serverFieldErrors(error) ?? {}));
      toast.error(message);
    } finally {
      setBusy(false);
    }
  }

  const radio = (value: Kind, label: string) => (
    <label className="inline-flex items-center gap-2 text-sm font-medium text-steel-700">
      <input
        type="radio"
        name="kind"
        value={value}
        checked={kind === value}
        disabled={busy}
        onChange={() => setKind(value)}
        className="h-4 w-4 accent-amber-dark"
      />
      {label}
    </label>
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="new-discount-heading" className="card mb-8 p-5 sm:p-6">
      <h2 id="new-discount-heading" className="text-lg font-bold">
        New discount code
      </h2>
      <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field
          label="Code"
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. SPRING10"
          hint="Letters, digits, - and _; case does not matter"
          {...bind('code')}
        />
        <fieldset className="min-w-0">
          <legend className="label">Gives</legend>
          <div className="flex min-h-10 flex-wrap items-center gap-x-5 gap-y-2">
            {radio('percent', 'Percent off')}
            {radio('amount', 'Amount off')}
          </div>
        </fieldset>
        <Field
          label={kind === 'percent' ? 'Percent off (%)' : 'Amount off ($)'}
          {...decimalInput()}
          placeholder={kind === 'percent' ? 'e.g. 10' : 'e.g. 5'}
          {...bind('value')}
        />
        <Field label="Minimum goods ($, optional)" {...decimalInput()} {...bind('minSubtotal')} />
        <Field label="Starts (optional)" type="date" hint="From the start of this day (UTC)" {...bind('startsAt')} />
        <Field
          label="Ends (optional)"
          type="date"
          hint="Usable through the end of this day (UTC)"
          {...bind('expiresAt')}
        />
        <Field label="Max uses (optional)" {...wholeInput(1)} hint="Empty: no limit" {...bind('maxUses')} />
        <CheckboxField
          label="Once per customer"
          checked={oncePerCustomer}
          disabled={busy}
          onChange={setOncePerCustomer}
          className="flex items-center gap-2 text-sm font-medium text-steel-700 sm:pt-7"
        />
      </div>
      <div className="mt-6">
        <SubmitButton busy={busy} busyLabel="Creating…">
          Create code
        </SubmitButton>
      </div>
    </form>
  );
}
