// Add product (admin): name, description, price, minimum order quantity, available quantity and an
// uploaded image. Each number goes to its own field (the spec's swapped payload is a bug we fix).
import { useRef, useState, type FormEvent } from 'react';
import { api, errorMessage, serverFieldErrors } from '../../client/api';
import { navigate } from '../../client/router';
import { toast } from '../../client/toast';
import { fieldErrors, toolInputSchema } from '../../lib/schemas';
import { Field, TextAreaField } from '../ui/Field';
import { ScreenHeader } from '../ui/ScreenHeader';
import { SubmitButton } from '../ui/SubmitButton';
import { useForm } from '../ui/useForm';
import { ImageUpload, imageErrors } from './ImageUpload';

const EMPTY = { name: '', description: '', price: '', minimumOrderQuantity: '', availableQuantity: '' };
type Values = typeof EMPTY;
const NUMBER_LABELS = { price: 'Price', minimumOrderQuantity: 'Minimum order quantity', availableQuantity: 'Available quantity' } as const;

export default function AddProduct(_props: { params: Record<string, string> }) {
  const { values, setValues, errors, setErrors, busy, setBusy, bind } = useForm<Values>(EMPTY);
  const [img, setImg] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [added, setAdded] = useState<{ id: string; name: string } | null>(null);
  const form = useRef<HTMLFormElement>(null);


  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setAdded(null);
    const parsed = toolInputSchema.safeParse({ ...values, img: img ?? '' });
    if (!parsed.success || !img) {
      const found = parsed.success ? {} : fieldErrors(parsed.error);
      // An empty number field is missing, not "not a number".
      for (const [key, label] of Object.entries(NUMBER_LABELS)) {
        if (values[key as keyof Values].trim() === '') found[key] = `${label} is required`;
      }
      if (!img) found.img = imageErrors.missing;
      setErrors(found);
      requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    try {
      const { name, description, price, minimumOrderQuantity, availableQuantity } = parsed.data;
      const { insertedId } = await api.post<{ insertedId: string }>('tools', { name, description, price, minimumOrderQuantity, availableQuantity, img });
      toast.success(`${name} was added to the catalogue`);
      setAdded({ id: insertedId, name });
      setValues(EMPTY);
      setImg(null);
      setErrors({});
    } catch (error) {
      setErrors(serverFieldErrors(error) ?? {});
      toast.error(errorMessage(error, 'The product could not be added. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <ScreenHeader title="Add a Product">New products appear on the home page and get their own page within a minute.</ScreenHeader>
      {added && (
        <p role="status" className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border border-green-200 bg-green-50 p-4 text-sm text-success">
          <span>
            <strong>{added.name}</strong> is in the catalogue.
          </span>
          <a href={`/tools/${added.id}`} className="font-semibold text-ink">
            View its page
          </a>
          <a
            href="/dashboard/allproduct"
            className="font-semibold text-ink"
            onClick={(e) => {
              e.preventDefault();
              navigate('/dashboard/allproduct');
            }}
          >
            Manage products
          </a>
        </p>
      )}
      <form ref={form} onSubmit={onSubmit} noValidate aria-label="Add a product" className="card max-w-3xl space-y-5 p-6 sm:p-8">
        <Field label="Name" autoComplete="off" placeholder="e.g. 20 oz Framing Hammer" {...bind('name')} />
        <TextAreaField label="Description" rows={4} placeholder="Materials, weight, what it is built for" {...bind('description')} />
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="Price (USD per unit)" type="number" inputMode="decimal" min="0.01" step="0.01" placeholder="24.99" {...bind('price')} />
          <Field label="Minimum order quantity" type="number" inputMode="numeric" min="1" step="1" placeholder="50" {...bind('minimumOrderQuantity')} />
          <Field label="Available quantity" type="number" inputMode="numeric" min="0" step="1" placeholder="1200" {...bind('availableQuantity')} />
        </div>
        <ImageUpload
          url={img}
          onUploaded={(url) => {
            setImg(url);
            if (url) setErrors((old) => ({ ...old, img: '' }));
          }}
          onBusy={setUploading}
          error={errors.img || undefined}
          disabled={busy}
        />
        <SubmitButton busy={busy} busyLabel="Adding…" disabled={uploading} className="btn-dark">
          {uploading ? 'Waiting for the image…' : 'Add product'}
        </SubmitButton>
      </form>
    </>
  );
}
