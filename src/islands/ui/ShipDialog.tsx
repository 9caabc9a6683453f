// The ship form (issue 25): the carrier (known ones suggested) and the tracking number, checked with the
// API's own schema, in a modal dialog. Used from Manage All Orders and from an order's page.
import { useState, type FormEvent } from 'react';
import { FormDialog } from './Modal';
import { api, errorMessage } from '../../client/infra/api';
import { KNOWN_CARRIERS } from '../../lib/carriers';
import type { Order } from '../../lib/entities';
import { fieldErrors, shipmentSchema } from '../../lib/schemas';
import { Field } from './Field';
import { DialogActions } from './DialogActions';

interface Props {
  order: Pick<Order, '_id' | 'productName' | 'email'>;
  onShipped(order: Order): void;
  onClose(): void;
}

export function ShipDialog({ order, onShipped, onClose }: Props) {
  const [values, setValues] = useState({ carrier: '', trackingNumber: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = shipmentSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const { order: shipped } = await api.orders.ship({ params: { id: order._id }, body: parsed.data });
      onShipped(shipped);
    } catch (error) {
      setErrors({ form: errorMessage(error, 'The order could not be marked shipped. Please try again.') });
      setBusy(false);
    }
  }

  const bind = (name: 'carrier' | 'trackingNumber') => ({
    name,
    value: values[name],
    error: errors[name],
    disabled: busy,
    onChange: (e: { target: { value: string } }) => {
      setValues((v) => ({ ...v, [name]: e.target.value }));
      setErrors((old) => ({ ...old, [name]: '', form: '' }));
    },
  });

  return (
    <FormDialog
      id="ship"
      title="Ship this order"
      intro={
        <>
          {order.productName} for <span className="break-all">{order.email}</span>. The buyer is emailed the tracking
          number.
        </>
      }
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
    >
      <Field label="Carrier" list="known-carriers" autoComplete="off" maxLength={60} {...bind('carrier')} />
      <datalist id="known-carriers">
        {KNOWN_CARRIERS.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <Field label="Tracking number" autoComplete="off" maxLength={60} {...bind('trackingNumber')} />
      <DialogActions error={errors.form} busy={busy} onClose={onClose} label="Mark shipped" busyLabel="Saving…" />
    </FormDialog>
  );
}
