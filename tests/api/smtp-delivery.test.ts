// Issue 25: the store's emails through a real SMTP server (smtp-server, in this process): the order's
// mails arrive with their PDF attachments; while the server is down nothing is lost and the failure is
// visible; once it is back (and after a restart of the store's process) each email arrives exactly once.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { ADMIN, createTestRuntime, type TestRuntime } from './harness';
import { makeTool, payOrder, placeOrder } from './helpers';

const received: ParsedMail[] = [];
let smtp: SMTPServer | undefined;
let port = 0;

async function startSmtp(onPort = 0): Promise<number> {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => smtp!.listen(onPort, '127.0.0.1', resolve));
  return (smtp.server.address() as AddressInfo).port;
}
const stopSmtp = () => new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));

let runtime: TestRuntime;
let admin: string;
let buyer: string;
const BUYER = 'smtp.buyer@test.example';

beforeAll(async () => {
  port = await startSmtp();
  runtime = await createTestRuntime({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Ironcrest Tools <orders@shop.example>',
      SHOP_EMAIL: 'shop@shop.example',
    },
  });
  admin = await runtime.tokenFor(ADMIN);
  buyer = await runtime.tokenFor(BUYER, 'Sam Smtp');
});
afterAll(async () => {
  await stopSmtp();
  await runtime.close();
});

const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address;

describe('emails through SMTP', () => {
  it('an order and its payment: the buyer gets both emails, the receipt with its invoice PDF; the shop hears of the sale', async () => {
    const tool = await makeTool(runtime, admin, { name: 'Smtp Claw Hammer', price: 10, availableQuantity: 100 });
    const id = await placeOrder(runtime, buyer, tool, 3);
    await payOrder(runtime, buyer, id);
    await runtime.outbox.run();
    const mine = received.filter((m) => to(m) === BUYER);
    expect(mine.map((m) => m.subject)).toEqual([
      expect.stringMatching(/placed: \$30\.00 to pay$/),
      expect.stringMatching(/^Payment received .* invoice INV-\d{4}-\d{6}$/),
    ]);
    expect(mine[0].from?.value[0].address).toBe('orders@shop.example');
    expect(mine[0].html).toContain('Smtp Claw Hammer');
    const [pdf] = mine[1].attachments;
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdf.filename).toMatch(/^INV-\d{4}-\d{6}\.pdf$/);
    expect(pdf.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(received.filter((m) => to(m) === 'shop@shop.example' && m.subject?.startsWith('Paid order'))).toHaveLength(
      1,
    );
  });

  it('SMTP down: the order still places, the failure is kept; back up and after a restart, the email arrives exactly once', async () => {
    await stopSmtp();
    const before = received.length;
    const tool = await makeTool(runtime, admin, { name: 'Outage Mallet', price: 5, availableQuantity: 100 });
    const id = await placeOrder(runtime, buyer, tool, 2);
    await runtime.outbox.run();
    const [delivery] = await runtime.db.query<{ state: string; attempts: number; last_error: string | null }>(
      `SELECT d.state, d.attempts, d.last_error FROM event_deliveries d JOIN events e ON e.seq = d.event_seq
        WHERE e.subject = $1 AND e.type = 'order.placed' AND d.consumer = 'email'`,
      [id],
    );
    expect(delivery).toMatchObject({ state: 'pending', attempts: 1 });
    expect(delivery.last_error).toBeTruthy();
    const [email] = await runtime.db.query<{ state: string; last_error: string }>(
      `SELECT m.state, m.last_error FROM emails m JOIN events e ON e.seq = m.event_seq WHERE e.subject = $1`,
      [id],
    );
    expect(email.state).toBe('failed');
    expect(received.length).toBe(before);

    // The server comes back on the same port; the store's process restarts (a new app on the same
    // database, whose outbox has never seen this event); the backoff has run out.
    await startSmtp(port);
    const restarted = createApp(runtime.deps);
    await runtime.db.query(`UPDATE event_deliveries SET next_at = now() WHERE state = 'pending'`);
    await restarted.outbox.run();
    await restarted.outbox.run();
    await runtime.outbox.run();
    const arrived = received.slice(before).filter((m) => m.text?.includes('Outage Mallet'));
    expect(arrived).toHaveLength(1);
    expect(to(arrived[0])).toBe(BUYER);
    const [sent] = await runtime.db.query<{ state: string; attempts: number }>(
      `SELECT m.state, m.attempts FROM emails m JOIN events e ON e.seq = m.event_seq WHERE e.subject = $1`,
      [id],
    );
    expect(sent).toEqual({ state: 'sent', attempts: 2 });
  });
});
