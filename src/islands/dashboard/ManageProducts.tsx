// Manage products (admin, spec point 2): total count; name, price and available quantity, with the
// spec's 'Cancel' button that deletes the product after confirmation.
import { useState } from 'react';
import { api, enc, errorMessage } from '../../client/api';
import { navigate } from '../../client/router';
import { toast } from '../../client/toast';
import type { Tool } from '../../lib/entities';
import { thumbnailUrl } from '../../lib/image-variants';
import { formatCents, toCents } from '../../lib/money';
import { messages } from '../../lib/messages';
import { useConfirm } from '../ui/ConfirmDialog';
import { DataTable, type Column } from '../ui/DataTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { Loaded } from '../ui/States';
import { Pager } from '../ui/Pager';
import { usePagedList } from '../ui/usePagedList';

export default function ManageProducts(_props: { params: Record<string, string> }) {
  // A page of the catalogue at a time, with the total from the server.
  const tools = usePagedList<Tool>('tools', 'Could not load the products. Please try again.');
  const { confirm, dialog } = useConfirm();
  const [deleting, setDeleting] = useState<string | null>(null);

  async function remove(tool: Tool) {
    const ok = await confirm({
      title: messages.confirmTitle,
      text: (
        <>
          <p>{messages.confirmIrreversible}</p>
          <p className="mt-2">
            Remove <strong>{tool.name}</strong> from the catalogue.
          </p>
        </>
      ),
      confirmLabel: 'Delete product',
    });
    if (!ok) return;
    setDeleting(tool._id);
    try {
      await api.delete(`tools/dlt/${enc(tool._id)}`);
      tools.updateRows((list) => list.filter((t) => t._id !== tool._id));
      toast.success(`${tool.name} was removed from the catalogue`);
    } catch (error) {
      toast.error(errorMessage(error, 'The product could not be deleted. Please try again.'));
    } finally {
      setDeleting(null);
    }
  }

  const columns: Column<Tool>[] = [
    {
      header: 'Name',
      rowHeader: true,
      cell: (t) => (
        <span className="flex items-center gap-3 max-sm:flex-row-reverse">
          <img src={thumbnailUrl(t.img)} alt="" width="40" height="30" loading="lazy" className="h-10 w-12 shrink-0 rounded border border-steel-200 bg-steel-100 object-cover" />
          <a href={`/tools/${enc(t._id)}`} className="text-ink underline decoration-steel-300 hover:text-amber-dark hover:decoration-amber-dark">
            {t.name}
          </a>
        </span>
      ),
    },
    { header: 'Price', className: 'sm:text-right tabular-nums', cell: (t) => formatCents(toCents(t.price)) },
    { header: 'Available quantity', className: 'sm:text-right tabular-nums', cell: (t) => t.availableQuantity.toLocaleString('en-US') },
    {
      header: 'Action',
      className: 'sm:text-right',
      cell: (t) => (
        <button type="button" className="btn btn-danger btn-sm" disabled={deleting !== null} aria-busy={deleting === t._id || undefined} onClick={() => remove(t)}>
          {deleting === t._id ? 'Deleting…' : 'Cancel'}
          <span className="sr-only"> {t.name}</span>
        </button>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Manage Products" total={tools.total} noun="products">
        Everything in the catalogue, newest first.
      </ScreenHeader>
      <Loaded data={tools.rows} error={tools.error} onRetry={tools.reload} label="Loading products…">
        {(rows) => (
          <>
            <DataTable
              caption="Products"
              columns={columns}
              rows={rows}
              rowKey={(t) => t._id}
              busy={tools.loading}
              empty={
                <>
                  The catalogue is empty.{' '}
                  <a
                    href="/dashboard/addproduct"
                    className="font-semibold text-amber-dark"
                    onClick={(e) => {
                      e.preventDefault();
                      navigate('/dashboard/addproduct');
                    }}
                  >
                    Add a product
                  </a>
                </>
              }
            />
            <Pager label="Product pages" pager={tools.pager} />
          </>
        )}
      </Loaded>
      {dialog}
    </>
  );
}
