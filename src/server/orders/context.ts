// What the parts of the orders feature share: built once by ordersService (orders.service.ts).
import type { Gather } from '../db/batched.ts';
import type { Db } from '../db/client.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import type { ToolsService } from '../tools/tools.service.ts';

export interface OrdersContext {
  db: Db;
  tools: ToolsService;
  /** How long an unpaid order holds its units (ORDER_HOLD_MINUTES). */
  holdMs: number;
  now: () => Date;
  /** Unpaid orders one buyer may hold at once. */
  maxUnpaidOrders: number;
  /** Issues the invoice in the payment's transaction. */
  invoices?: InvoicesService;
  /** LOW_STOCK_UNITS (undefined: each tool's minimum order × 2). */
  lowStockUnits?: number;
  /** Called after a transaction that wrote events commits (the outbox delivers them at once). */
  eventsWritten: () => void;
  /** When a batch of one-line orders waits for the rest of a burst (db/batched.ts). */
  gather?: Gather;
}
