// The tools file: a tool as a row of cells (export), and a file's rows read back as tools (import): the
// header checked, each row through the one tool schema, then matched to the catalogue (by _id, else by
// name), all without touching the database.
import {
  CSV_IMPORT_MAX_ROWS,
  PRICE_BREAKS_FORMAT,
  REQUIRED_TOOL_CSV_COLUMNS,
  TOOL_CSV_COLUMNS,
  formatPriceBreaks,
  parsePriceBreaks,
  type ToolCsvColumn,
} from '../../lib/exchange.ts';
import type { ImportRow } from '../../lib/entities.ts';
import { toDollars } from '../../lib/money.ts';
import { idSchema, toolInputSchema, type ToolInput } from '../../lib/schemas.ts';
import { invalid, tooLarge } from '../errors.ts';
import type { ToolRow } from '../tools/tool-rows.ts';
import { fromSafeCell, type Cell, type CsvRecord } from './csv.ts';

/** Money as the files write it: dollars with two decimals. */
export const dollarsCell = (cents: number | string): string => (Number(cents) / 100).toFixed(2);

/** A tool as a row of the tools file (TOOL_CSV_COLUMNS' order); a tool's own low-stock level, empty when it has none. */
export const toolCells = (r: ToolRow): Cell[] => [
  r.id,
  r.name,
  r.description,
  r.img,
  dollarsCell(r.price_cents),
  r.minimum_order_quantity,
  r.available_quantity,
  r.pack_size,
  r.quote_above,
  r.low_stock_units,
  formatPriceBreaks(r.price_breaks.map((b) => ({ minQuantity: b.minQuantity, price: toDollars(b.priceCents) }))),
];

type CellError = { column: string; message: string };

/** A data row read: the tool it describes when it passed the schema, else why not. */
export interface ToolCsvRow {
  line: number;
  id?: string;
  name: string;
  input?: ToolInput;
  errors: CellError[];
}

const list = (names: string[]) => names.join(', ');

/** Which column each header cell is (any order, any case); an unknown, repeated or missing one refuses the file. */
function readHeader(cells: string[]): (ToolCsvColumn | undefined)[] {
  const canonical = new Map(TOOL_CSV_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const columns = cells.map((cell) => canonical.get(cell.trim().toLowerCase()));
  const unknown = cells.filter((cell, i) => cell.trim() !== '' && !columns[i]);
  if (unknown.length)
    throw invalid(`Unknown column(s): ${list(unknown)}. The columns are: ${list([...TOOL_CSV_COLUMNS])}.`);
  const repeated = columns.filter((c, i) => c && columns.indexOf(c) !== i);
  if (repeated.length) throw invalid(`Column(s) given twice: ${list([...new Set(repeated as string[])])}.`);
  const missing = REQUIRED_TOOL_CSV_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length)
    throw invalid(`Missing column(s): ${list([...missing])}. Required: ${list([...REQUIRED_TOOL_CSV_COLUMNS])}.`, {
      columns: list([...missing]),
    });
  return columns;
}

const blank = (cells: string[]) => cells.every((c) => c.trim() === '');

/** Where a schema issue belongs: its column, and which break of the price breaks. */
function columnOf(path: PropertyKey[], message: string): CellError {
  const [field, index] = path;
  if (field === 'priceBreaks' && typeof index === 'number')
    return { column: 'priceBreaks', message: `Break ${index + 1}: ${message}` };
  return { column: field === undefined ? '_row' : String(field), message };
}

/** One data row through the tool schema (cells are text: the schema reads numbers from text, as from a form). */
function readRow(columns: (ToolCsvColumn | undefined)[], record: CsvRecord): ToolCsvRow {
  const cell: Partial<Record<ToolCsvColumn, string>> = {};
  const errors: CellError[] = [];
  if (record.cells.length > columns.length)
    errors.push({
      column: '_row',
      message: `This row has ${record.cells.length} cells; the header has ${columns.length}`,
    });
  columns.forEach((column, i) => {
    if (column) cell[column] = fromSafeCell(record.cells[i] ?? '');
  });
  for (const [column, value] of Object.entries(cell))
    if (value.includes('\u0000')) errors.push({ column, message: 'Text must not contain NUL characters' });
  const id = cell._id?.trim() || undefined;
  if (id && !idSchema.safeParse(id).success)
    errors.push({ column: '_id', message: 'Not a tool id (24 characters 0-9, a-f)' });
  const breaks = parsePriceBreaks(cell.priceBreaks ?? '');
  if (!breaks) errors.push({ column: 'priceBreaks', message: PRICE_BREAKS_FORMAT });
  const result = toolInputSchema.safeParse({
    name: cell.name,
    description: cell.description,
    img: cell.img,
    price: cell.price,
    minimumOrderQuantity: cell.minimumOrderQuantity,
    availableQuantity: cell.availableQuantity,
    packSize: cell.packSize,
    quoteAbove: cell.quoteAbove,
    lowStockUnits: cell.lowStockUnits,
    priceBreaks: breaks ?? [],
  });
  if (!result.success) errors.push(...result.error.issues.map((issue) => columnOf(issue.path, issue.message)));
  const name = (cell.name ?? '').trim();
  return { line: record.line, id, name, input: errors.length ? undefined : (result.data as ToolInput), errors };
}

/**
 * A file's data rows, each validated: the header first (400 naming what is wrong), blank rows skipped.
 * An empty file, one with only a header, or one over CSV_IMPORT_MAX_ROWS rows is refused whole.
 */
export function readToolRows(records: CsvRecord[]): ToolCsvRow[] {
  const first = records.findIndex((r) => !blank(r.cells));
  if (first < 0) throw invalid('The file is empty. Export the tools for a file with the right columns.');
  const columns = readHeader(records[first].cells);
  const data = records.slice(first + 1).filter((r) => !blank(r.cells));
  if (!data.length) throw invalid('The file has a header but no rows.');
  if (data.length > CSV_IMPORT_MAX_ROWS)
    throw tooLarge(
      `A file may hold at most ${CSV_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows; split it and import each part.`,
    );
  return data.map((r) => readRow(columns, r));
}

/** A tool of the catalogue, as matching reads it. */
export interface KnownTool {
  id: string;
  name: string;
}

/** What a row will do once matched: create, update the tool `id`, or nothing (errors). */
export interface PlannedRow extends ImportRow {
  input?: ToolInput;
}

/**
 * Each row matched to the catalogue: by _id when given (an unknown one is an error), else by name,
 * ignoring case (two tools of that name: an error asking for the _id). Two rows for one tool, or a name
 * on two rows that are not both matched by _id, is an error on the later row.
 */
export function planImport(rows: ToolCsvRow[], known: KnownTool[]): PlannedRow[] {
  const ids = new Set(known.map((t) => t.id));
  const byName = new Map<string, string[]>();
  for (const t of known) {
    const key = t.name.trim().toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), t.id]);
  }
  // Rows without an _id are told apart by name alone; tools already sharing a name may each have a row by _id.
  const names = new Map<string, { line: number; byId: boolean }>();
  const targets = new Map<string, number>();
  return rows.map((row) => {
    const errors = [...row.errors];
    const key = row.name.toLowerCase();
    const sameName = key ? names.get(key) : undefined;
    if (sameName && !(row.id && sameName.byId))
      errors.push({
        column: 'name',
        message: `The name is also on line ${sameName.line}; give each row its _id, or each tool once per file`,
      });
    else if (key && !sameName) names.set(key, { line: row.line, byId: Boolean(row.id) });
    let target: string | undefined;
    if (row.id) {
      if (ids.has(row.id)) target = row.id;
      else if (!errors.some((e) => e.column === '_id')) errors.push({ column: '_id', message: 'No tool has this _id' });
    } else if (key) {
      const matches = byName.get(key) ?? [];
      if (matches.length > 1)
        errors.push({
          column: 'name',
          message: `${matches.length} tools have this name; give the _id of the one to update`,
        });
      else target = matches[0];
    }
    if (target) {
      const other = targets.get(target);
      if (other !== undefined)
        errors.push({ column: row.id ? '_id' : 'name', message: `Line ${other} updates the same tool` });
      else targets.set(target, row.line);
    }
    if (errors.length)
      return { row: row.line, action: 'error', ...(target ? { _id: target } : {}), name: row.name, errors };
    return target
      ? { row: row.line, action: 'update', _id: target, name: row.name, input: row.input }
      : { row: row.line, action: 'create', name: row.name, input: row.input };
  });
}
