// Webhooks (admin, issue 29): the endpoints other software gives the store (accounting, ERP, shipping),
// each with the events it wants, its state (a paused one says why, and Resume), its delivery log and
// Delete. The add form shows a new endpoint's signing secret once.
import { useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import type { WebhookEndpoint as Endpoint } from '../../lib/entities';
import { messages } from '../../lib/messages';
import { Badge } from '../ui/Badge';
import { useConfirm } from '../ui/ConfirmDialog';
import { EmptyState, Loaded } from '../ui/States';
import { ScreenHeader } from '../ui/ScreenHeader';
import { useResource } from '../ui/useResource';
import { When } from '../ui/When';
import { WebhookDeliveries } from './WebhookDeliveries';
import { WebhookForm } from './WebhookForm';

function EndpointCard({ endpoint, onChange, onGone }: { endpoint: Endpoint; onChange(): void; onGone(): void }) {
  const { confirm, dialog } = useConfirm();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<'resume' | 'delete' | null>(null);
  const logId = `deliveries-${endpoint.id}`;

  async function resume() {
    setBusy('resume');
    try {
      await api.webhooks.resume({ params: { id: endpoint.id } });
      toast.success(messages.webhookResumed);
      onChange();
    } catch (error) {
      toast.error(errorMessage(error, messages.webhookResumeFailed));
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    const ok = await confirm({
      text: `Nothing more is sent to ${endpoint.url}, and deliveries still waiting are dropped. ${messages.confirmIrreversible}`,
      confirmLabel: 'Delete',
    });
    if (!ok) return;
    setBusy('delete');
    try {
      await api.webhooks.remove({ params: { id: endpoint.id } });
      toast.success(messages.webhookDeleted);
      onGone();
    } catch (error) {
      toast.error(errorMessage(error, messages.webhookDeleteFailed));
      setBusy(null);
    }
  }

  const paused = endpoint.state === 'paused';
  return (
    <li className="card p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="font-mono text-base font-semibold break-all">{endpoint.url}</h2>
          <p className="mt-1 text-xs text-steel-600">
            Added <When at={endpoint.createdAt} /> by {endpoint.createdBy}
            {endpoint.lastSuccessAt && (
              <>
                {' · '}last delivered <When at={endpoint.lastSuccessAt} withTime />
              </>
            )}
          </p>
        </div>
        <span className="flex items-center gap-2">
          {paused ? <Badge tone="danger">Paused</Badge> : <Badge tone="success">Active</Badge>}
          {endpoint.pending > 0 && <Badge tone="warning">{endpoint.pending} waiting</Badge>}
          {endpoint.failed > 0 && <Badge>{endpoint.failed} failed</Badge>}
        </span>
      </div>
      {paused && (
        <div
          role="status"
          className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-danger"
        >
          <p>
            <span className="font-semibold">
              Paused
              {endpoint.pausedAt && (
                <>
                  {' '}
                  <When at={endpoint.pausedAt} withTime />
                </>
              )}
              :
            </span>{' '}
            {endpoint.pausedReason}
          </p>
          <button
            type="button"
            className="btn btn-dark btn-sm"
            disabled={busy !== null}
            aria-busy={busy === 'resume' || undefined}
            onClick={resume}
          >
            {busy === 'resume' ? 'Resuming…' : 'Resume'}
            <span className="sr-only"> {endpoint.url}</span>
          </button>
        </div>
      )}
      <ul className="mt-4 flex flex-wrap gap-1.5" aria-label="Events">
        {endpoint.events.map((e) => (
          <li key={e} className="rounded bg-steel-100 px-2 py-0.5 font-mono text-xs text-steel-700">
            {e}
          </li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-outline btn-sm"
          aria-expanded={open}
          aria-controls={logId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide deliveries' : 'Show deliveries'}
          <span className="sr-only"> to {endpoint.url}</span>
        </button>
        <button
          type="button"
          className="btn btn-outline btn-sm"
          disabled={busy !== null}
          aria-busy={busy === 'delete' || undefined}
          onClick={remove}
        >
          {busy === 'delete' ? 'Deleting…' : 'Delete'}
          <span className="sr-only"> {endpoint.url}</span>
        </button>
      </div>
      <div id={logId}>{open && <WebhookDeliveries endpoint={endpoint} onChange={onChange} />}</div>
      {dialog}
    </li>
  );
}

export default function Webhooks(_props: { params: Record<string, string> }) {
  const list = useResource(api.webhooks.list, {}, 'Could not load the webhook endpoints. Please try again.');
  return (
    <>
      <ScreenHeader title="Webhooks" total={list.data?.length} noun="endpoints">
        Tell your accounting, ERP or shipping software what happens in the store: each event is sent to the endpoints
        that chose it, signed, and retried for more than a day.
      </ScreenHeader>
      <WebhookForm onCreated={list.reload} />
      <Loaded data={list.data} error={list.error} onRetry={list.reload} label="Loading webhook endpoints…">
        {(rows) =>
          rows.length ? (
            <ul className={`space-y-4 ${list.loading ? 'opacity-60' : ''}`} aria-label="Webhook endpoints">
              {rows.map((endpoint) => (
                <EndpointCard
                  key={endpoint.id}
                  endpoint={endpoint}
                  onChange={list.reload}
                  onGone={() => list.update((all) => all.filter((e) => e.id !== endpoint.id))}
                />
              ))}
            </ul>
          ) : (
            <EmptyState>{messages.noWebhooks}</EmptyState>
          )
        }
      </Loaded>
    </>
  );
}
