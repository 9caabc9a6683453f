// Import / Export (admin, issue 26): the catalogue and the orders as CSV files for spreadsheets and
// accounting software, and the catalogue back in from one (ImportTools: check first, then import).
import { useState, type FormEvent, type ReactNode } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { saveFile } from '../../client/infra/save-file';
import { toast } from '../../client/infra/toast';
import { DownloadButton } from '../ui/DownloadButton';
import { PlacedRange } from '../ui/PlacedRange';
import { ScreenHeader } from '../ui/ScreenHeader';
import { ImportTools } from './ImportTools';

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="card min-w-0 p-4 sm:p-6">
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function ImportExport(_props: { params: Record<string, string> }) {
  const [busy, setBusy] = useState<'tools' | 'orders' | null>(null);
  const [range, setRange] = useState({ from: '', to: '' });

  async function download(kind: 'tools' | 'orders', file: Promise<{ blob: Blob; name: string }>) {
    setBusy(kind);
    try {
      const { blob, name } = await file;
      saveFile(blob, name);
      toast.success(`Downloaded ${name}`);
    } catch (error) {
      toast.error(errorMessage(error, 'The file could not be made. Please try again.'));
    } finally {
      setBusy(null);
    }
  }

  function downloadOrders(event: FormEvent) {
    event.preventDefault();
    void download(
      'orders',
      api.exchange.exportOrders(
        { query: { from: range.from || undefined, to: range.to || undefined } },
        { fileName: 'orders.csv' },
      ),
    );
  }

  return (
    <>
      <ScreenHeader title="Import / Export">
        The catalogue and the orders as CSV files for spreadsheets and accounting software, and the catalogue back in.
      </ScreenHeader>
      <div className="mb-6 grid gap-4 lg:grid-cols-2">
        <Panel id="export-tools" title="Products">
          <p id="export-tools-text" className="mt-1 mb-4 text-sm text-steel-600">
            Every tool with its price, price breaks, pack size and stock, in the columns the import reads: edit it in a
            spreadsheet and import it back.
          </p>
          <DownloadButton
            busy={busy === 'tools'}
            label="Download tools.csv"
            onClick={() => void download('tools', api.exchange.exportTools({}, { fileName: 'tools.csv' }))}
          />
        </Panel>
        <Panel id="export-orders" title="Orders">
          <p className="mt-1 mb-4 text-sm text-steel-600">
            One row per order line: buyer, payment, shipping, quantity and prices. Days are in UTC; leave them empty for
            every order.
          </p>
          <form className="grid gap-3 sm:grid-cols-2" onSubmit={downloadOrders} aria-label="Download orders">
            <PlacedRange
              idPrefix="export"
              from={range.from}
              to={range.to}
              onChange={(change) => setRange({ ...range, ...change })}
            />
            <div className="sm:col-span-2">
              <DownloadButton busy={busy === 'orders'} label="Download orders.csv" type="submit" />
            </div>
          </form>
        </Panel>
      </div>
      <ImportTools />
    </>
  );
}
