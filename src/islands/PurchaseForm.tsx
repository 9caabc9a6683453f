// The purchase form on /tools/{id}: login required; the limits come from the live tool.
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, enc, errorMessage } from '../client/api';
import { $user } from '../client/session-store';
import { toast } from '../client/toast';
import { messages } from '../lib/messages';
import { formatCents, toCents } from '../lib/money';
import { PHONE_PATTERN, quantityError } from '../lib/rules';
import type { Tool } from '../lib/entities';
import { Field, TextAreaField } from './ui/Field';
import { RequireAuth } from './ui/Guards';
import { Spinner } from './ui/Spinner';
import { SubmitButton } from './ui/SubmitButton';

export default function PurchaseForm({ tool }: { tool: Tool }) {
  return (
    <RequireAuth>
      <Purchase initial={tool} />
    </RequireAuth>
  );
}

function Purchase({ initial }: { initial: Tool }) {
  const user = useStore($user)!;
  const [tool, setTool] = useState<Tool>(initial);
  const [quantity, setQuantity] = useState(String(initial.minimumOrderQuantity));
  const [address, setAddress] = useState('');
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<{ quantity?: string | null; phone?: string | null; address?: string | null }>({});
  const [busy, setBusy] = useState(false);
  const [placed, setPlaced] = useState<string | null>(null);

  /** The live tool: stock and limits as they are now, not as they were at build time. */
  const refresh = useCallback(async () => {
    const live = await api.get<Tool>(`tools/${enc(initial._id)}`, { cache: 'no-cache' });
    setTool(live);
    for (const el of document.querySelectorAll('[data-live-stock]')) el.textContent = String(live.availableQuantity);
    return live;
  }, [initial._id]);
  useEffect(() => {
    refresh().catch(() => toast.error('Could not load the current stock. Please reload the page.'));
  }, [refresh]);

  const checkQuantity = (value = quantity, t = tool) => quantityError(Number(value), t);
  const checkPhone = (value = phone) => (PHONE_PATTERN.test(value.trim()) ? null : messages.invalidPhone);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next = {
      quantity: checkQuantity(),
      phone: checkPhone(),
      address: address.trim() ? null : 'Address is required',
    };
    setErrors(next);
    if (next.quantity || next.phone || next.address) return;
    setBusy(true);
    try {
      const result = await api.post<{ acknowledged: boolean; insertedId: string }>('booking', {
        toolId: tool._id,
        quantity: Number(quantity),
        address: address.trim(),
        phone: phone.trim(),
      });
      if (result.acknowledged) {
        toast.success(messages.orderPlaced);
        setPlaced(result.insertedId);
        setAddress('');
        setPhone('');
        const live = await refresh();
        setQuantity(String(live.minimumOrderQuantity));
      }
    } catch (error) {
      toast.error(errorMessage(error));
      await refresh().catch(() => {});
    } finally {
      setBusy(false);
    }
  }

  const total = Number.isInteger(Number(quantity)) && Number(quantity) > 0 ? Number(quantity) * toCents(tool.price) : null;
  const soldOut = tool.availableQuantity < tool.minimumOrderQuantity;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-labelledby="purchase-heading">
      <p className="text-sm text-steel-600" aria-live="polite">
        In stock now: <strong data-testid="live-stock">{tool.availableQuantity}</strong> · minimum order {tool.minimumOrderQuantity}
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" name="buyer-name" id="buyer-name" className="input bg-steel-100" value={user.displayName ?? ''} readOnly />
        <Field label="Email" name="buyer-email" id="buyer-email" className="input bg-steel-100" value={user.email ?? ''} readOnly />
      </div>
      <Field
        label="Quantity"
        name="quantity"
        id="quantity"
        type="number"
        inputMode="numeric"
        min={tool.minimumOrderQuantity}
        max={tool.availableQuantity}
        step={1}
        value={quantity}
        error={errors.quantity}
        onChange={(e) => setQuantity(e.target.value)}
        onBlur={() => setErrors((x) => ({ ...x, quantity: checkQuantity() }))}
      />
      <TextAreaField
        label="Address"
        name="address"
        id="address"
        rows={2}
        autoComplete="street-address"
        value={address}
        error={errors.address}
        onChange={(e) => {
          setAddress(e.target.value);
          setErrors((x) => ({ ...x, address: null }));
        }}
      />
      <Field
        label="Phone"
        name="phone"
        id="phone"
        type="tel"
        autoComplete="tel"
        placeholder="01712345678"
        value={phone}
        error={errors.phone}
        onChange={(e) => setPhone(e.target.value)}
        onBlur={() => setErrors((x) => ({ ...x, phone: checkPhone() }))}
      />
      <p className="text-sm">
        Total: <strong>{total === null ? '—' : formatCents(total)}</strong>
      </p>
      <SubmitButton busy={busy} busyLabel="Placing your order…" disabled={Boolean(errors.quantity) || soldOut} className="btn-primary w-full">
        {soldOut ? 'Out of stock' : 'Purchase'}
      </SubmitButton>
      {busy && <Spinner label="Placing your order…" className="sr-only" />}
      {placed && (
        <p className="rounded-md bg-green-50 p-3 text-sm text-success" role="status">
          {messages.orderPlaced}.{' '}
          <a href={`/dashboard/payment/${placed}`} className="font-semibold underline">
            Pay now
          </a>{' '}
          or find it in{' '}
          <a href="/dashboard/myorders" className="font-semibold underline">
            My Orders
          </a>
          .
        </p>
      )}
    </form>
  );
}
