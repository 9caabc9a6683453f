// CSV in and out (issue 26): the catalogue and the order lines as spreadsheets, and the tools import.
import { z } from 'zod';
import { importReportSchema } from '../entities.ts';
import { orderExportQuerySchema } from '../schemas.ts';
import { get, post } from './route.ts';

const csv = { description: 'The CSV file (UTF-8 with a BOM, RFC 4180)', type: 'text/csv', file: true } as const;

export const exchangeContract = {
  exportTools: get('/export/tools.csv', 'The catalogue as CSV', {
    description: 'The columns the import reads back.',
    responses: { 200: csv },
  }),
  exportOrders: get('/export/orders.csv', 'The order lines placed on these days (UTC), as CSV', {
    description: 'One row per order line; either end may be left out.',
    query: orderExportQuerySchema,
    responses: { 200: csv },
  }),
  importTools: post('/import/tools', 'Import tools from CSV', {
    description:
      'A dry run by default: the report of what each row would do, nothing written. With `apply=1`, every row or none: a file with an error in any row is refused whole (422 with the report).',
    query: z.object({
      apply: z
        .enum(['0', '1', 'true', 'false'], { error: 'apply must be 1 or 0' })
        .optional()
        .transform((v) => v === '1' || v === 'true'),
    }),
    body: { schema: z.string().describe('The CSV file'), type: 'text/csv' },
    responses: {
      200: { description: 'The report', schema: importReportSchema },
      413: { description: 'The file is larger than the import takes' },
      422: {
        description: 'Applied with errors: nothing was imported',
        schema: importReportSchema.extend({ error: z.strictObject({ code: z.string(), message: z.string() }) }),
      },
    },
  }),
};
