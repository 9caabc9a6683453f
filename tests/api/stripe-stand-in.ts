// A local stand-in for the Stripe endpoints the server uses (create, retrieve, cancel, refund), so the Stripe gateway is tested offline.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  client_secret: string;
  status: string;
  metadata: Record<string, string>;
  receipt_email: string | null;
}

export interface StandInRefund {
  id: string;
  object: 'refund';
  amount: number;
  payment_intent: string;
  status: 'succeeded';
}

export interface RecordedRequest {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

/** With `from`, starts again on the same address with the same intents and refunds (Stripe back after an outage). */
export async function startStripeStandIn(from?: {
  url: string;
  intents: Map<string, StandInIntent>;
  refunds: Map<string, StandInRefund>;
}) {
  const intents = from?.intents ?? new Map<string, StandInIntent>();
  const byIdempotencyKey = new Map<string, StandInIntent>();
  const refunds = from?.refunds ?? new Map<string, StandInRefund>();
  const refundsByKey = new Map<string, StandInRefund>();
  const requests: RecordedRequest[] = [];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(6).toString('hex')}`,
    });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: ServerResponse, what: string) =>
    send(res, 404, {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${what}'` },
    });
  const refused = (res: ServerResponse, code: string, message: string) =>
    send(res, 400, { error: { type: 'invalid_request_error', code, message } });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const form = Object.fromEntries(new URLSearchParams(raw));
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      form,
      idempotencyKey,
      authorization: req.headers.authorization,
    });

    if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
      const known = idempotencyKey && byIdempotencyKey.get(idempotencyKey);
      if (known) return send(res, 200, known);
      const id = `pi_${randomBytes(12).toString('hex')}`;
      const metadata: Record<string, string> = {};
      for (const [key, value] of Object.entries(form)) {
        const match = /^metadata\[(.+)\]$/.exec(key);
        if (match) metadata[match[1]] = value;
      }
      const intent: StandInIntent = {
        id,
        object: 'payment_intent',
        amount: Number(form.amount),
        currency: form.currency,
        client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
        status: 'requires_payment_method',
        metadata,
        receipt_email: form.receipt_email ?? null,
      };
      intents.set(id, intent);
      if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, intent);
      return send(res, 200, intent);
    }
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(url.pathname);
    if (req.method === 'POST' && cancel) {
      const intent = intents.get(decodeURIComponent(cancel[1]));
      if (!intent) return notFound(res, cancel[1]);
      // As Stripe: only an intent that has not succeeded (nor been cancelled) can be cancelled.
      if (intent.status === 'succeeded' || intent.status === 'canceled') {
        return refused(
          res,
          'payment_intent_unexpected_state',
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
        );
      }
      intent.status = 'canceled';
      return send(res, 200, intent);
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      const known = idempotencyKey && refundsByKey.get(idempotencyKey);
      if (known) return send(res, 200, known);
      const intent = intents.get(form.payment_intent ?? '');
      if (!intent) return notFound(res, form.payment_intent ?? '');
      if (intent.status !== 'succeeded')
        return refused(
          res,
          'payment_intent_unexpected_state',
          'This PaymentIntent does not have a successful charge to refund.',
        );
      // As Stripe: refunds (whole, or parts with `amount`) add up to at most what was charged.
      const refunded = [...refunds.values()]
        .filter((r) => r.payment_intent === intent.id)
        .reduce((sum, r) => sum + r.amount, 0);
      if (refunded >= intent.amount) {
        return refused(res, 'charge_already_refunded', `Charge for ${intent.id} has already been refunded.`);
      }
      const amount = form.amount ? Number(form.amount) : intent.amount - refunded;
      if (amount > intent.amount - refunded) {
        return refused(
          res,
          'amount_too_large',
          `Refund amount (${amount}) is greater than unrefunded amount on charge (${intent.amount - refunded}).`,
        );
      }
      const refund: StandInRefund = {
        id: `re_${randomBytes(12).toString('hex')}`,
        object: 'refund',
        amount,
        payment_intent: intent.id,
        status: 'succeeded',
      };
      refunds.set(refund.id, refund);
      if (idempotencyKey) refundsByKey.set(idempotencyKey, refund);
      return send(res, 200, refund);
    }
    if (req.method === 'GET' && url.pathname === '/v1/refunds') {
      const data = [...refunds.values()].filter(
        (r) => !url.searchParams.get('payment_intent') || r.payment_intent === url.searchParams.get('payment_intent'),
      );
      return send(res, 200, { object: 'list', data, has_more: false, url: '/v1/refunds' });
    }
    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && retrieve) {
      const intent = intents.get(decodeURIComponent(retrieve[1]));
      return intent ? send(res, 200, intent) : notFound(res, retrieve[1]);
    }
    send(res, 404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` },
    });
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(from ? Number(new URL(from.url).port) : 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    refunds,
    requests,
    /** What the card network would do when the buyer confirms: the intent succeeds. */
    succeed(id: string) {
      intents.get(id)!.status = 'succeeded';
    },
    /** An intent made directly on "Stripe", as if by another integration. */
    add(intent: Partial<StandInIntent> & { amount: number }) {
      const id = `pi_${randomBytes(12).toString('hex')}`;
      const full: StandInIntent = {
        id,
        object: 'payment_intent',
        currency: 'usd',
        client_secret: `${id}_secret_x`,
        status: 'succeeded',
        metadata: {},
        receipt_email: null,
        ...intent,
      };
      intents.set(id, full);
      return full;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
