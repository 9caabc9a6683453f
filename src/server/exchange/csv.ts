// CSV as spreadsheets read it: UTF-8 with a BOM (Excel guesses the encoding otherwise), RFC 4180 quoting
// with CRLF rows, and no cell a spreadsheet would run as a formula. Written page by page, read whole
// (the body is bounded) in one linear pass.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { invalid } from '../errors.ts';
import { logger } from '../observability/logger.ts';

export type Cell = string | number | null | undefined;

// A cell starting with one of these runs as a formula in Excel, LibreOffice or Google Sheets
// (OWASP "CSV injection"); tab and CR are read as such too.
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * A text cell made inert: a formula's first character gets a `'` before it. Quotes already there in front
 * of one get another, so `fromSafeCell` gives back exactly what was written.
 */
export const safeCell = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** A cell read from a file this store wrote (or one saved by a spreadsheet): the `'` safeCell added, taken off. */
export const fromSafeCell = (text: string): string =>
  text.startsWith("'") && FORMULA_START.test(text) ? text.slice(1) : text;

const line = (cells: Cell[][]): string =>
  stringify(
    cells.map((row) => row.map((c) => (typeof c === 'string' ? safeCell(c) : c))),
    // RFC 4180: CRLF between records, and a field holding a line break is quoted (csv-stringify quotes
    // only the record delimiter by default).
    { record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );

/**
 * A CSV file as a stream: the BOM and the header, then each page of rows as the reader pulls it, so the
 * server never holds more than one page (a slow client slows the reads down, nothing piles up).
 */
export function csvStream(header: readonly string[], pages: AsyncIterator<Cell[][]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`\uFEFF${line([[...header]])}`));
      },
      async pull(controller) {
        try {
          const next = await pages.next();
          if (next.done) controller.close();
          else if (next.value.length) controller.enqueue(encoder.encode(line(next.value)));
        } catch (error) {
          // The status is sent: the client sees a cut-off download, the log says why.
          logger.error({ err: error }, 'CSV export failed while streaming');
          controller.error(error);
        }
      },
      async cancel() {
        await pages.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}

/** A record of a file read: its cells and the line of the file it starts on (the header is line 1). */
export interface CsvRecord {
  cells: string[];
  line: number;
}

/**
 * A CSV body as records: UTF-8 only (a file saved in a legacy code page is refused, not garbled), a BOM
 * dropped, quoting as RFC 4180. A malformed file (a quote never closed) is a 400 naming the line.
 */
export function readCsv(body: Uint8Array): CsvRecord[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw invalid('The file is not UTF-8 text. Save it from your spreadsheet as "CSV UTF-8" and try again.');
  }
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: false,
      relax_quotes: false,
    }) as unknown as typeof parsed;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw invalid(`The file is not valid CSV: ${message}`);
  }
  // info.lines is the line a record ends on; every line belongs to a record, so each starts after the last.
  let end = 0;
  return parsed.map(({ record, info }) => {
    const start = end + 1;
    end = info.lines;
    return { cells: record, line: start };
  });
}
