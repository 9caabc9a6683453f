// The product form of Add product and Edit product: the spec's fields (Edit leaves the stock to its
// restock call), the trade's (pack size, quote threshold, low-stock level) and up to five price breaks,
// checked with the one schema; each message under its field, a break's under its row.
import { useRef, useState, type FormEvent } from 'react';
import {
  fieldErrors,
  MAX_PRICE_BREAKS,
  toolEditSchema,
  toolInputSchema,
  type ToolEdit,
  type ToolInput,
} from '../../lib/schemas';
import { decimalInput, Field, TextAreaField, wholeInput } from '../ui/Field';
import { SubmitButton } from '../ui/SubmitButton';
import { useForm } from '../ui/useForm';
import { ImageUpload, imageErrors } from './ImageUpload';
import { PriceBreakRows, type BreakRow } from './PriceBreakRows';

export const EMPTY_PRODUCT = {
  name: '',
  description: '',
  price: '',
  minimumOrderQuantity: '',
  availableQuantity: '',
  packSize: '1',
  quoteAbove: '',
  lowStockUnits: '',
};
export type ProductValues = typeof EMPTY_PRODUCT;
export interface ProductDraft {
  values: ProductValues;
  breaks: BreakRow[];
  img: string | null;
}

const NUMBER_LABELS = {
  price: 'Price',
  minimumOrderQuantity: 'Minimum order quantity',
  availableQuantity: 'Available quantity',
} as const;

interface Props {
  /** What the form starts with (and returns to after an add). */
  initial: ProductDraft;
  /** Edit product: no stock field (the stock keeps its own restock call). */
  edit?: boolean;
  label: string;
  submitLabel: string;
  busyLabel: string;
  /** Sends the checked product; resolves true to empty the form again (Add product), throws with the server's field errors. */
  onSave: (product: ToolInput | ToolEdit) => Promise<boolean>;
  onServerErrors: (error: unknown) => Record<string, string>;
}

export function ProductForm({ initial, edit = false, label, submitLabel, busyLabel, onSave, onServerErrors }: Props) {
  const { values, setValues, errors, setErrors, busy, setBusy, bind } = useForm<ProductValues>(initial.values);
  const [breaks, setBreaks] = useState<BreakRow[]>(initial.breaks);
  const [img, setImg] = useState<string | null>(initial.img);
  const [uploading, setUploading] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body = { ...values, priceBreaks: breaks, img: img ?? '' };
    const parsed = edit ? toolEditSchema.safeParse(body) : toolInputSchema.safeParse(body);
    if (!parsed.success || !img) {
      const found = parsed.success ? {} : fieldErrors(parsed.error);
      // An empty number field is missing, not "not a number".
      for (const [key, label] of Object.entries(NUMBER_LABELS)) {
        if (edit && key === 'availableQuantity') continue;
        if (values[key as keyof ProductValues].trim() === '') found[key] = `${label} is required`;
      }
      if (!img) found.img = imageErrors.missing;
      setErrors(found);
      requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    try {
      if (await onSave(parsed.data as ToolInput | ToolEdit)) {
        setValues(initial.values);
        setBreaks(initial.breaks);
        setImg(initial.img);
      }
      setErrors({});
    } catch (error) {
      setErrors(onServerErrors(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label={label} className="card max-w-3xl space-y-5 p-6 sm:p-8">
      <Field label="Name" autoComplete="off" placeholder="e.g. 20 oz Framing Hammer" {...bind('name')} />
      <TextAreaField
        label="Description"
        rows={4}
        placeholder="Materials, weight, what it is built for"
        {...bind('description')}
      />
      <div className={`grid gap-4 ${edit ? 'sm:grid-cols-2' : 'sm:grid-cols-3'}`}>
        <Field label="Price (USD per unit)" {...decimalInput('0.01')} placeholder="24.99" {...bind('price')} />
        <Field label="Minimum order quantity" {...wholeInput('1')} placeholder="50" {...bind('minimumOrderQuantity')} />
        {!edit && (
          <Field label="Available quantity" {...wholeInput()} placeholder="1200" {...bind('availableQuantity')} />
        )}
      </div>
      <fieldset className="space-y-4 rounded-lg border border-steel-200 p-4">
        <legend className="px-1 text-sm font-bold">Trade</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="Pack size" {...wholeInput('1')} hint="Orders are whole packs" {...bind('packSize')} />
          <Field
            label="Quote above (units)"
            {...wholeInput('1')}
            placeholder="Optional"
            hint="Larger orders ask for a quote"
            {...bind('quoteAbove')}
          />
          <Field
            label="Low-stock level"
            {...wholeInput()}
            placeholder="Shop default"
            hint="Flagged in Manage products below it"
            {...bind('lowStockUnits')}
          />
        </div>
        <PriceBreakRows
          rows={breaks}
          max={MAX_PRICE_BREAKS}
          errors={errors}
          disabled={busy}
          onChange={(rows) => {
            setBreaks(rows);
            setErrors((old) =>
              Object.fromEntries(Object.entries(old).filter(([key]) => !key.startsWith('priceBreaks'))),
            );
          }}
        />
      </fieldset>
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
      <SubmitButton busy={busy} busyLabel={busyLabel} disabled={uploading} className="btn-dark">
        {uploading ? 'Waiting for the image…' : submitLabel}
      </SubmitButton>
    </form>
  );
}
