// The offline card form: Stripe's test cards behave as in Stripe test mode (see README).
import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { cardFormatError, formatCardNumber, formatExpiry, parseExpiry } from '../../lib/cards';
import { PayFooter } from './PayFooter';

export interface CardFormProps {
  clientSecret: string;
  onPaid(transactionId: string): Promise<void>;
}

export default function SandboxCardForm({ clientSecret, onPaid }: CardFormProps) {
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '', postalCode: '' });
  const [cardError, setCardError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof card, value: string) => setCard((c) => ({ ...c, [name]: value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const input = {
      number: card.number,
      ...parseExpiry(card.expiry),
      cvc: card.cvc.trim(),
      postalCode: card.postalCode.trim(),
    };
    // Like Stripe's createPaymentMethod: a card that cannot be sent is refused here.
    const formatError = cardFormatError(input);
    if (formatError) return setCardError(formatError);
    setCardError(null);
    setBusy(true);
    try {
      // Like Stripe's confirmCardPayment(clientSecret): the sandbox network charges the card or declines it.
      const { paymentIntent } = await api.payments.sandboxConfirm({ body: { clientSecret, card: input } });
      await onPaid(paymentIntent.id);
    } catch (error) {
      setCardError(errorMessage(error));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Card payment">
      <p className="badge bg-amber/25 text-ink">Sandbox — no real money</p>
      <div>
        <label className="label" htmlFor="card-number">
          Card number
        </label>
        <input
          id="card-number"
          className="input font-mono"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          value={card.number}
          onChange={(e) => set('number', formatCardNumber(e.target.value))}
        />
      </div>
      <div className="grid grid-cols-3 items-end gap-3">
        <div>
          <label className="label" htmlFor="card-expiry">
            Expiry (MM/YY)
          </label>
          <input
            id="card-expiry"
            className="input"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            value={card.expiry}
            onChange={(e) => set('expiry', formatExpiry(e.target.value, card.expiry))}
          />
        </div>
        <div>
          <label className="label" htmlFor="card-cvc">
            CVC
          </label>
          <input
            id="card-cvc"
            className="input"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            value={card.cvc}
            onChange={(e) => set('cvc', e.target.value.replace(/\D/g, '').slice(0, 4))}
          />
        </div>
        <div>
          <label className="label" htmlFor="card-postal">
            Postal code
          </label>
          <input
            id="card-postal"
            className="input"
            autoComplete="postal-code"
            placeholder="1207"
            value={card.postalCode}
            onChange={(e) => set('postalCode', e.target.value)}
          />
        </div>
      </div>
      <PayFooter busy={busy} cardError={cardError} />
    </form>
  );
}
