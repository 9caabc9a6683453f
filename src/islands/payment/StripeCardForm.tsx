// Stripe Elements (spec point 7): createPaymentMethod, then confirmCardPayment with the clientSecret.
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useMemo, useState, type FormEvent } from 'react';
import { errorMessage } from '../../client/infra/api';
import { PayFooter } from './PayFooter';
import type { CardFormProps } from './SandboxCardForm';

let stripePromise: Promise<Stripe | null> | undefined;

export default function StripeCardForm({ publishableKey, ...props }: CardFormProps & { publishableKey: string }) {
  const stripe = useMemo(() => (stripePromise ??= loadStripe(publishableKey)), [publishableKey]);
  return (
    <Elements stripe={stripe}>
      <CardForm {...props} />
    </Elements>
  );
}

function CardForm({ clientSecret, onPaid }: CardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [cardError, setCardError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setBusy(true);
    setCardError(null);
    try {
      const { error, paymentMethod } = await stripe.createPaymentMethod({ type: 'card', card });
      if (error) throw new Error(error.message);
      const result = await stripe.confirmCardPayment(clientSecret, { payment_method: paymentMethod.id });
      if (result.error) throw new Error(result.error.message);
      await onPaid(result.paymentIntent.id);
    } catch (error) {
      setCardError(error instanceof Error && !('response' in error) ? error.message : errorMessage(error));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Card payment">
      <div className="rounded-md border border-steel-300 bg-white p-3">
        <CardElement
          options={{ hidePostalCode: false, style: { base: { fontSize: '16px', color: pageTextColor() } } }}
        />
      </div>
      <PayFooter busy={busy} cardError={cardError} disabled={!stripe} />
    </form>
  );
}

/** Stripe's field is an iframe that cannot see our stylesheet: it gets the page's text colour (light or dark theme). */
const pageTextColor = () =>
  typeof document === 'undefined' ? '#1f2328' : getComputedStyle(document.documentElement).color;
