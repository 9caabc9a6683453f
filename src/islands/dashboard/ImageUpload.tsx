// The product image picker: checks type and size at once, shows a preview, uploads to POST /images
// (multipart field `image`) with a progress bar, and hands the stored URL to the form.
import { useEffect, useRef, useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from '../../lib/limits';

const MB = IMAGE_MAX_BYTES / 1024 / 1024;
export const imageErrors = {
  type: 'Only JPEG, PNG or WebP images are accepted',
  size: `The image is too big: at most ${MB} MB`,
  missing: 'Choose an image to upload',
};

interface Props {
  /** The uploaded image's URL, or null. */
  url: string | null;
  onUploaded(url: string | null): void;
  onBusy(busy: boolean): void;
  /** An error from the form (e.g. no image chosen). */
  error?: string;
  disabled?: boolean;
}

export function ImageUpload({ url, onUploaded, onBusy, error: formError, disabled }: Props) {
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const upload = useRef<AbortController | null>(null);

  // Free the preview's memory when it changes, and stop an upload when the form goes away.
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  useEffect(() => () => upload.current?.abort(), []);
  // The form cleared itself after saving: clear the picker too (the preview at once, the file input,
  // which React does not control, after the render).
  const cleared = url === null && progress === null;
  if (cleared && preview !== null) setPreview(null);
  useEffect(() => {
    if (cleared && input.current) input.current.value = '';
  }, [cleared]);

  async function choose(file: File | undefined) {
    upload.current?.abort();
    onUploaded(null);
    setError(null);
    setPreview(null);
    if (!file) return;
    const problem = !(IMAGE_TYPES as readonly string[]).includes(file.type)
      ? imageErrors.type
      : file.size > IMAGE_MAX_BYTES
        ? imageErrors.size
        : null;
    if (problem) {
      setError(problem);
      if (input.current) input.current.value = '';
      return;
    }
    setPreview(URL.createObjectURL(file));
    const controller = new AbortController();
    upload.current = controller;
    setProgress(0);
    onBusy(true);
    try {
      const body = new FormData();
      body.append('image', file);
      const answer = await api.images.upload({ body }, { onProgress: setProgress, signal: controller.signal });
      if (!answer.success || !answer.data?.url) throw new Error('no url');
      onUploaded(answer.data.url);
    } catch (e) {
      if (controller.signal.aborted) return;
      setError(errorMessage(e, 'The image could not be uploaded. Please try again.'));
      setPreview(null);
      if (input.current) input.current.value = '';
    } finally {
      if (upload.current === controller) {
        upload.current = null;
        setProgress(null);
        onBusy(false);
      }
    }
  }

  const shown = error ?? formError;
  const uploading = progress !== null;
  return (
    <div>
      <label className="label" htmlFor="field-image">
        Image
      </label>
      <div
        className={`flex flex-col gap-4 rounded-lg border-2 border-dashed p-4 sm:flex-row sm:items-start ${shown ? 'border-danger' : 'border-steel-300'} bg-steel-50`}
      >
        <div className="flex aspect-video w-full shrink-0 sm:aspect-[4/3] items-center justify-center overflow-hidden rounded-md border border-steel-200 bg-white sm:w-40">
          {preview || url ? (
            <img
              src={preview ?? url!}
              alt="Preview of the chosen image"
              className={`h-full w-full object-cover ${uploading ? 'opacity-50' : ''}`}
            />
          ) : (
            <svg width="40" height="40" viewBox="0 0 24 24" aria-hidden="true" className="fill-steel-300">
              <path d="M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm1 12h14l-4.5-6-3.5 4.5-2.5-3z" />
            </svg>
          )}
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <input
            ref={input}
            id="field-image"
            name="image"
            type="file"
            accept={IMAGE_TYPES.join(',')}
            disabled={disabled}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? 'field-image-error' : 'field-image-hint'}
            onChange={(e) => void choose(e.target.files?.[0])}
            className="block w-full max-w-full text-sm text-steel-700 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-ink file:px-3 file:py-2 file:text-sm file:font-semibold file:text-white hover:file:bg-steel-700"
          />
          {uploading ? (
            <div className="flex items-center gap-2 text-sm text-steel-700" role="status">
              <progress
                className="h-2 w-40 accent-amber-dark"
                max={100}
                value={Math.round(progress * 100)}
                aria-label="Upload progress"
              />
              Uploading… {Math.round(progress * 100)}%
            </div>
          ) : url && !shown ? (
            <p className="text-sm font-medium text-success" role="status">
              Image uploaded
            </p>
          ) : null}
          {shown ? (
            <p id="field-image-error" className="field-error" role="alert">
              {shown}
            </p>
          ) : (
            <p id="field-image-hint" className="text-xs text-steel-600">
              JPEG, PNG or WebP, at most {MB} MB. A 4:3 photo looks best.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
