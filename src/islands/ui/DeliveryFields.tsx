// The buyer and delivery part of the two order forms (the tool page's purchase form and the cart's
// checkout): who buys, read from the session, then where the order goes and a phone to call.
import type { ReactNode } from 'react';
import type { SessionUser } from '../../client/state/session-store';
import { messages } from '../../lib/messages';
import { PHONE_PATTERN } from '../../lib/rules';
import { Field, TextAreaField } from './Field';
import type { FieldBinding } from './useForm';

export const EMPTY_DELIVERY = { address: '', phone: '' };
export type Delivery = typeof EMPTY_DELIVERY;

const phoneError = (phone: string) => (PHONE_PATTERN.test(phone.trim()) ? null : messages.invalidPhone);

/** useForm's checks for the delivery fields: the phone is checked when it loses focus. */
export const deliveryChecks = { phone: phoneError };

/** Every delivery message at once, for a submit (empty when the delivery can be sent). */
export function deliveryErrors({ address, phone }: Delivery): Partial<Record<keyof Delivery, string>> {
  const errors: Partial<Record<keyof Delivery, string>> = {};
  if (!address.trim()) errors.address = 'Address is required';
  const phoneMessage = phoneError(phone);
  if (phoneMessage) errors.phone = phoneMessage;
  return errors;
}

export const deliveryJson = ({ address, phone }: Delivery): Delivery => ({
  address: address.trim(),
  phone: phone.trim(),
});

/**
 * Name and email of the signed-in buyer (read-only), then address and phone bound to the form that
 * holds them; `children` (the purchase form's quantity) go between the two.
 */
export function DeliveryFields({
  user,
  bind,
  children,
}: {
  user: SessionUser;
  bind: (name: keyof Delivery) => FieldBinding;
  children?: ReactNode;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        {(
          [
            ['Name', 'buyer-name', user.displayName],
            ['Email', 'buyer-email', user.email],
          ] as const
        ).map(([label, id, value]) => (
          <Field key={id} label={label} name={id} id={id} className="input bg-steel-100" value={value ?? ''} readOnly />
        ))}
      </div>
      {children}
      <TextAreaField label="Address" id="address" rows={2} autoComplete="street-address" {...bind('address')} />
      <Field label="Phone" id="phone" type="tel" autoComplete="tel" placeholder="01712345678" {...bind('phone')} />
    </>
  );
}
