// Download my data (issue 24): a JSON file of the profile, every order and every review, from
// GET /api/account/export (fetched with the access token, then saved by the browser).
import { useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import { messages } from '../../lib/messages';
import { saveFile as save } from '../../client/infra/save-file';
import { DownloadButton } from '../ui/DownloadButton';

export function DownloadData() {
  const [busy, setBusy] = useState(false);

  async function onDownload() {
    setBusy(true);
    try {
      const { blob, name } = await api.account.export({}, { fileName: 'ironcrest-data.json' });
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
      <DownloadButton
        className="mt-4"
        busy={busy}
        label="Download my data"
        busyLabel="Preparing your file…"
        onClick={onDownload}
        describedBy="download-text"
      />
    </div>
  );
}
