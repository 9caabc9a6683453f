import type { Context } from 'hono';
import { exchangeContract } from '../../lib/contracts/exchange.ts';
import { CSV_IMPORT_MAX_BYTES, ORDER_CSV_COLUMNS, TOOL_CSV_COLUMNS } from '../../lib/exchange.ts';
import { adminOnly } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import { ApiError } from '../http/errors.ts';
import { readBounded } from '../http/validate.ts';
import type { AppEnv, Deps } from '../types.ts';
import { csvStream, readCsv, type Cell } from './csv.ts';
import type { ExchangeService } from './exchange.service.ts';
import { orderLineCells, ordersFileName } from './orders-csv.ts';
import { readToolRows, toolCells } from './tools-csv.ts';

async function* cellPages<R>(pages: AsyncGenerator<R[]>, cells: (row: R) => Cell[]): AsyncGenerator<Cell[][]> {
  for await (const page of pages) yield page.map(cells);
}

/** The pages, the first one read already: a database that is away is a 503 before any byte is sent. */
async function* startingWith<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}

/** A CSV attachment, streamed: a spreadsheet opens it as UTF-8. */
async function csvFile(c: Context<AppEnv>, name: string, header: readonly string[], pages: AsyncGenerator<Cell[][]>) {
  const first = await pages.next();
  c.header('Content-Type', 'text/csv; charset=utf-8');
  c.header('Content-Disposition', `attachment; filename="${name}"`);
  c.header('Cache-Control', 'no-store');
  return c.body(csvStream(header, startingWith(first, pages)));
}

const tooLarge = () =>
  new ApiError(
    413,
    'too_large',
    `The file is larger than ${CSV_IMPORT_MAX_BYTES / 1024 / 1024} MB; split it and import each part.`,
  );

export function exchangeRoutes(deps: Deps, exchange: ExchangeService) {
  return (
    contractRouter(deps)
      .on(exchangeContract.exportTools, adminOnly(deps), (c) => {
        const day = deps.now().toISOString().slice(0, 10);
        return csvFile(c, `tools-${day}.csv`, TOOL_CSV_COLUMNS, cellPages(exchange.toolPages(), toolCells));
      })
      .on(exchangeContract.exportOrders, adminOnly(deps), (c, { query: range }) =>
        csvFile(
          c,
          ordersFileName(range.from, range.to),
          ORDER_CSV_COLUMNS,
          cellPages(exchange.orderLinePages(range), orderLineCells),
        ),
      )
      // A dry run by default: the report, nothing written. With ?apply=1, all rows or none (422 and the report).
      .on(exchangeContract.importTools, adminOnly(deps), async (c, { query: { apply } }) => {
        if (!/^text\/csv\s*(;|$)/i.test(c.req.header('content-type') ?? ''))
          throw new ApiError(415, 'unsupported_media_type', 'Send the file as text/csv');
        const rows = readToolRows(readCsv(await readBounded(c.req.raw, CSV_IMPORT_MAX_BYTES, tooLarge)));
        const { report, applied } = await exchange.importTools(rows, { apply, actor: c.get('user').email });
        if (apply && !applied) {
          const message = `${report.summary.error} row${report.summary.error === 1 ? ' has' : 's have'} errors; nothing was imported.`;
          return c.json({ error: { code: 'unprocessable', message }, ...report }, 422);
        }
        return report;
      }).app
  );
}
