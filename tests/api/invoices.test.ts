// Invoice and credit note numbers (issue 25): per series and year, sequential with no gaps, even with
// payments at once and payments rolled back; each invoice keeps what it said when issued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoicesService } from '../../src/server/invoices/invoices.service';
import { createTestRuntime, type TestRuntime } from './harness';
import { pdfText } from './pdf-text';

let runtime: TestRuntime;
const invoices = invoicesService({ name: 'Ironcrest Tools', address: '1 Forge Road\nDhaka', taxId: 'BIN-0042' });
beforeAll(async () => {
  runtime = await createTestRuntime();
});
afterAll(() => runtime.close());

const issue =
  (orderId: string, at = new Date('2026-06-01T10:00:00Z'), kind: 'invoice' | 'credit note' = 'invoice') =>
  (tx: Parameters<typeof invoices.issue>[0]) =>
    invoices.issue(tx, {
      kind,
      at,
      orderId,
      buyer: { name: 'Sam Shopper', email: 'sam@test.example', address: '12 Forge Lane' },
      lines: [{ productName: 'Claw Hammer', quantity: 10, unitCents: 1240 }],
      totalCents: 12400,
      paymentReference: 'pi_test',
    });

describe('numbers', () => {
  it('are sequential with no gaps: 40 at once, 10 rolled back in between', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        runtime.db
          .transaction(async (tx) => {
            const number = await issue(`order-${i}`)(tx);
            if (i % 5 === 0) throw new Error('the payment failed after its number was taken');
            return number;
          })
          .catch(() => null),
      ),
    );
    const numbers = results.filter((n): n is string => n !== null).sort();
    expect(numbers).toHaveLength(40);
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => `INV-2026-${String(i + 1).padStart(6, '0')}`));
  });

  it('start again each year, and credit notes count apart', async () => {
    const next = await runtime.db.transaction(issue('order-y', new Date('2027-01-01T00:00:01Z')));
    expect(next).toBe('INV-2027-000001');
    const note = await runtime.db.transaction(issue('order-y', new Date('2027-01-02T00:00:00Z'), 'credit note'));
    expect(note).toBe('CN-2027-000001');
  });
});

describe('documents', () => {
  it('keep what they said when issued, and render as a PDF with the seller, the buyer, the lines and the total', async () => {
    const number = await runtime.db.transaction(issue('order-pdf'));
    const [invoice] = await invoices.forOrder(runtime.db, 'order-pdf');
    expect(invoice).toMatchObject({ number, kind: 'invoice', orderId: 'order-pdf', amountCents: 12400 });
    const pdf = await invoices.pdf(invoice);
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of [
      `Invoice ${number}`,
      'Ironcrest Tools',
      'Tax ID: BIN-0042',
      'Sam Shopper',
      'Claw Hammer',
      '$12.40',
      '$124.00',
      'Payment reference: pi_test',
    ])
      expect(text).toContain(expected);
  });
});
