// The refund form (admin, issue 25): all that is left of the payment by default, or an amount; and
// whether the order's units go back to the stock. Checked with the API's schema; sent once.
import { useState, type FormEvent } from 'react';
import { FormDialog } from './Modal';
import { api, errorMessage } from '../../client/infra/api';
import type { Order } from '../../lib/entities';
import { formatCents } from '../../lib/money';
import { fieldErrors, refundSchema } from '../../lib/schemas';
import { CheckboxField, Field } from './Field';
import { DialogActions } from './DialogActions';

interface Props {
  order: Pick<Order, '_id' | 'totalCents' | 'refundedCents'>;
  onRefunded(): void;
  onClose(): void;
}

export function RefundDialog({ order, onRefunded, onClose }: Props) {
  const left = order.totalCents - order.refundedCents;
  const [amount, setAmount] = useState('');
  const [restock, setRestock] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = refundSchema.safeParse({ restock, ...(amount.trim() ? { amount: amount.trim() } : {}) });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      await api.orders.refund({ params: { id: order._id }, body: parsed.data });
      onRefunded();
    } catch (error) {
      setErrors({ form: errorMessage(error, 'The refund did not go through. Please try again.') });
      setBusy(false);
    }
  }

  return (
    <FormDialog
      id="refund"
      title="Refund this order"
      intro={
        <>
          {formatCents(left)} of {formatCents(order.totalCents)} can be given back to the buyer's card. They are emailed
          a credit note.
        </>
      }
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
    >
      <Field
        label="Amount in dollars (empty: all that is left)"
        name="amount"
        inputMode="decimal"
        placeholder={(left / 100).toFixed(2)}
        value={amount}
        error={errors.amount}
        disabled={busy}
        onChange={(e) => {
          setAmount(e.target.value);
          setErrors({});
        }}
      />
      <CheckboxField
        label="Put the order's units back in stock"
        checked={restock}
        disabled={busy}
        onChange={setRestock}
      />
      <DialogActions error={errors.form} busy={busy} onClose={onClose} label="Refund" busyLabel="Refunding…" danger />
    </FormDialog>
  );
}
