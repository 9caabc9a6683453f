// The tools import of Import / Export: pick a CSV file, check it (a dry run: what each row would do, or
// why it cannot), then import it, all rows or none. Only a file with no errors can be imported.
import { useId, useRef, useState, type FormEvent } from 'react';
import { api, errorMessage, httpStatus } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import type { ImportReport, ImportRow } from '../../lib/entities';
import {
  CSV_IMPORT_MAX_BYTES,
  CSV_IMPORT_MAX_ROWS,
  PRICE_BREAKS_FORMAT,
  REQUIRED_TOOL_CSV_COLUMNS,
} from '../../lib/exchange';
import { Badge } from '../ui/Badge';
import { DataTable, type Column } from '../ui/DataTable';
import { SubmitButton } from '../ui/SubmitButton';

/** Rows the table shows at most (errors first): a file may hold 50,000. */
const SHOWN_ROWS = 200;

const ACTIONS: Record<ImportRow['action'], { label: string; tone: 'success' | 'neutral' | 'danger' }> = {
  create: { label: 'Add', tone: 'success' },
  update: { label: 'Update', tone: 'neutral' },
  error: { label: 'Error', tone: 'danger' },
};

const columns: Column<ImportRow>[] = [
  { header: 'Line', rowHeader: true, className: 'whitespace-nowrap', cell: (r) => r.row },
  { header: 'Action', cell: (r) => <Badge tone={ACTIONS[r.action].tone}>{ACTIONS[r.action].label}</Badge> },
  {
    header: 'Name',
    cell: (r) => <span className="block text-left [overflow-wrap:anywhere] @max-2xl:max-w-[65%]">{r.name || '—'}</span>,
  },
  {
    header: 'Errors',
    cell: (r) =>
      r.errors?.length ? (
        <ul className="space-y-0.5 text-left text-xs text-danger @max-2xl:max-w-[65%]">
          {r.errors.map((e, i) => (
            <li key={i} className="[overflow-wrap:anywhere]">
              <span className="font-semibold">{e.column === '_row' ? 'Row' : e.column}:</span> {e.message}
            </li>
          ))}
        </ul>
      ) : (
        <span className="text-steel-500">—</span>
      ),
  },
];

/** The file as the API takes it: a CSV body (sent as a Blob of type text/csv, so the session may renew). */
const send = (file: File, apply: boolean) =>
  api.exchange.importTools({ query: apply ? { apply: '1' } : {}, body: file });

export function ImportTools() {
  const ids = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<'check' | 'apply' | null>(null);

  async function run(apply: boolean) {
    if (!file) return;
    setBusy(apply ? 'apply' : 'check');
    setProblem(null);
    try {
      const answer = await send(file, apply);
      if (!apply) {
        setReport(answer);
        return;
      }
      toast.success(`Imported ${file.name}: ${answer.summary.create} added, ${answer.summary.update} updated`);
      setReport(null);
      setFile(null);
      if (input.current) input.current.value = '';
    } catch (error) {
      // 422: a row went wrong since the check (the catalogue changed); the answer is the fresh report.
      const fresh = httpStatus(error) === 422 ? (error as { data?: ImportReport }).data : undefined;
      if (fresh?.rows) setReport(fresh);
      else setReport(null);
      setProblem(errorMessage(error, 'The file could not be read. Please try again.'));
    } finally {
      setBusy(null);
    }
  }

  function check(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setProblem('Choose a CSV file first.');
      return;
    }
    void run(false);
  }

  const total = report ? report.rows.length : 0;
  const shown = report
    ? [...report.rows.filter((r) => r.action === 'error'), ...report.rows.filter((r) => r.action !== 'error')].slice(
        0,
        SHOWN_ROWS,
      )
    : [];
  const canApply = report !== null && report.summary.error === 0 && total > 0;

  return (
    <section aria-labelledby={`${ids}-title`} className="card min-w-0 p-4 sm:p-6">
      <h2 id={`${ids}-title`} className="text-lg font-bold">
        Import products
      </h2>
      <div id={`${ids}-hint`} className="mt-1 mb-4 max-w-prose space-y-1 text-sm text-steel-600">
        <p>
          A CSV file (UTF-8) with the columns of tools.csv; {REQUIRED_TOOL_CSV_COLUMNS.join(', ')} are required. A row
          with an _id updates that tool, a row without one updates the tool of the same name, or adds a new one. Stock
          (availableQuantity) is set as written.
        </p>
        <p>
          {PRICE_BREAKS_FORMAT}. At most {CSV_IMPORT_MAX_BYTES / 1024 / 1024} MB and{' '}
          {CSV_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows. Checking changes nothing; the import writes every row or
          none.
        </p>
      </div>
      <form className="flex flex-wrap items-end gap-3" onSubmit={check}>
        <div className="min-w-0 grow">
          <label className="label" htmlFor={`${ids}-file`}>
            CSV file
          </label>
          <input
            ref={input}
            id={`${ids}-file`}
            name="file"
            type="file"
            accept=".csv,text/csv"
            aria-describedby={`${ids}-hint`}
            disabled={busy !== null}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setReport(null);
              setProblem(null);
            }}
            className="block w-full max-w-full text-sm text-steel-700 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-ink file:px-3 file:py-2 file:text-sm file:font-semibold file:text-white hover:file:bg-steel-700"
          />
        </div>
        <SubmitButton
          className="btn-outline max-sm:w-full"
          busy={busy === 'check'}
          busyLabel="Checking…"
          disabled={busy !== null}
        >
          Check file
        </SubmitButton>
      </form>
      {problem && (
        <p role="alert" className="field-error mt-3">
          {problem}
        </p>
      )}
      {report && (
        <div className="mt-6 space-y-4">
          <p role="status" className="text-sm">
            <span className="font-semibold">{total.toLocaleString('en-US')} rows:</span> {report.summary.create} to add,{' '}
            {report.summary.update} to update,{' '}
            <span className={report.summary.error ? 'font-semibold text-danger' : ''}>
              {report.summary.error} with errors
            </span>
            .{report.summary.error > 0 && ' Fix them in the file and check it again.'}
          </p>
          {total > shown.length && (
            <p className="text-xs text-steel-600">
              Showing {shown.length} of {total.toLocaleString('en-US')} rows
              {report.summary.error ? ', errors first' : ''}.
            </p>
          )}
          <DataTable
            caption="What each row of the file does"
            columns={columns}
            rows={shown}
            rowKey={(r) => String(r.row)}
            busy={busy === 'apply'}
            empty="The file has no rows."
          />
          <button
            type="button"
            className="btn btn-primary max-sm:w-full"
            disabled={!canApply || busy !== null}
            aria-busy={busy === 'apply' || undefined}
            onClick={() => void run(true)}
          >
            {busy === 'apply' && (
              <span
                className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
                aria-hidden="true"
              />
            )}
            {busy === 'apply' ? 'Importing…' : `Import ${total.toLocaleString('en-US')} rows`}
          </button>
        </div>
      )}
    </section>
  );
}
