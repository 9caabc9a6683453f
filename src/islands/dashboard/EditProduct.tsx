// Edit product (admin, issue 26): everything but the stock (which keeps its restock call), in the form
// Add product uses, sent whole with PUT /tools/{id}; then back to Manage products.
import { useEffect, useState } from 'react';
import { api, enc, errorMessage, serverFieldErrors } from '../../client/infra/api';
import { navigate } from '../../client/state/router';
import { toast } from '../../client/infra/toast';
import type { AdminTool } from '../../lib/entities';
import type { ToolEdit } from '../../lib/schemas';
import { AppLink } from '../ui/AppLink';
import { ScreenHeader } from '../ui/ScreenHeader';
import { LoadError } from '../ui/States';
import { PageSpinner } from '../ui/Spinner';
import { ProductForm, type ProductDraft } from './ProductForm';
import { dashboardPaths } from './paths';

const MANAGE = dashboardPaths.manageProducts.path;

/** The form's strings for a tool as Edit product loads it (its own low-stock level, empty when it follows the shop's). */
function draftOf(tool: AdminTool): ProductDraft {
  return {
    values: {
      name: tool.name,
      description: tool.description,
      price: String(tool.price),
      minimumOrderQuantity: String(tool.minimumOrderQuantity),
      availableQuantity: String(tool.availableQuantity),
      packSize: String(tool.packSize),
      quoteAbove: tool.quoteAbove === null ? '' : String(tool.quoteAbove),
      lowStockUnits: tool.ownLowStockUnits === null ? '' : String(tool.ownLowStockUnits),
    },
    breaks: tool.priceBreaks.map((b) => ({ minQuantity: String(b.minQuantity), price: String(b.price) })),
    img: tool.img,
  };
}

export default function EditProduct({ params }: { params: Record<string, string> }) {
  const id = params.id ?? '';
  const [tool, setTool] = useState<AdminTool | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    // The live tool, not a copy the browser kept: an edit starts from what is there now.
    api.tools
      .forEdit({ params: { id } })
      .then(setTool, (e: unknown) => setError(errorMessage(e, 'Could not load this product. Please try again.')));
  }, [id, attempt]);

  async function save(product: ToolEdit) {
    try {
      await api.tools.edit({ params: { id }, body: product });
    } catch (e) {
      toast.error(errorMessage(e, 'The product could not be saved. Please try again.'));
      throw e;
    }
    toast.success(`${product.name} was saved`);
    navigate(MANAGE);
    return false;
  }

  return (
    <>
      <ScreenHeader title="Edit Product">
        {tool ? (
          <>
            Changes show on <a href={`/tools/${enc(tool._id)}`}>its page</a> within a minute; orders placed before keep
            their prices. Stock: <strong>{tool.availableQuantity.toLocaleString('en-US')}</strong> (changed by a
            restock, not here).
          </>
        ) : (
          'Everything about a product but its stock.'
        )}
      </ScreenHeader>
      <p className="mb-4 text-sm">
        <AppLink href={MANAGE} className="font-semibold text-amber-dark">
          ← Manage products
        </AppLink>
      </p>
      {error && (
        <LoadError
          message={error}
          onRetry={() => {
            setError(null);
            setAttempt((n) => n + 1);
          }}
        />
      )}
      {!tool && !error && <PageSpinner label="Loading the product…" />}
      {tool && (
        <ProductForm
          key={tool._id}
          initial={draftOf(tool)}
          edit
          label={`Edit ${tool.name}`}
          submitLabel="Save changes"
          busyLabel="Saving…"
          onSave={(product) => save(product as ToolEdit)}
          onServerErrors={(e) => serverFieldErrors(e) ?? {}}
        />
      )}
    </>
  );
}
