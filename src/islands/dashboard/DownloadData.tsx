// Download my data (issue 24): a JSON file of the profile, every order and every review, from
// GET /api/account/export (fetched with the access token, then saved by the browser).
import { useState } from 'react';
import { api, errorMessage } from '../../client/api';
import { toast } from '../../client/toast';
import { messages } from '../../lib/messages';
import { saveFile as save } from '../../client/save-file';

export function DownloadData() {
  const [busy, setBusy] = useState(false);

  async function onDownload() {
    setBusy(true);
    try {
      const { blob, name } = await api.download('account/export', 'ironcrest-data.json');
      save(blob, name);
      toast.success(messages.dataDownloaded);
    } catch (error) {
      toast.error(errorMessage(error, messages.dataDownloadFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div>
      <p id="download-text" className="max-w-prose text-sm text-steel-700">
        A JSON file with your profile, all your orders (with their lines, payment, shipping and refunds) and all your
        reviews.
      </p>
      <button
        type="button"
        className="btn btn-outline mt-4 max-sm:w-full"
        onClick={onDownload}
        disabled={busy}
        aria-busy={busy || undefined}
        aria-describedby="download-text"
      >
        {busy ? (
          <span
            className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
            aria-hidden="true"
          />
        ) : (
          <svg width="16" height="16" viewBox="0 0 20 20" aria-hidden="true" className="fill-current">
            <path d="M9 2h2v8.6l3.3-3.3 1.4 1.4L10 14.4 4.3 8.7l1.4-1.4L9 10.6zM3 16h14v2H3z" />
          </svg>
        )}
        {busy ? 'Preparing your file…' : 'Download my data'}
      </button>
    </div>
  );
}
