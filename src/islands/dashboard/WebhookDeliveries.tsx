// One endpoint's delivery log (issue 29), newest first: the event, what came of the last attempt (status,
// the receiver's HTTP code, the time it took, the error), the attempts so far, and Replay, which sends it
// again with the same webhook-id. While deliveries wait, the log looks again every few seconds.
import { useEffect, useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import type { WebhookDelivery as Delivery, WebhookEndpoint } from '../../lib/entities';
import { messages } from '../../lib/messages';
import { Badge } from '../ui/Badge';
import type { Column } from '../ui/DataTable';
import { PagedTable } from '../ui/PagedTable';
import { usePagedList } from '../ui/usePagedList';
import { When } from '../ui/When';

const REFRESH_MS = 3000;

function State({ d }: { d: Delivery }) {
  if (d.state === 'delivered') return <Badge tone="success">Delivered</Badge>;
  if (d.state === 'failed') return <Badge tone="danger">Failed</Badge>;
  return <Badge tone="warning">{d.attempts ? 'Retrying' : 'Waiting'}</Badge>;
}

export function WebhookDeliveries({ endpoint, onChange }: { endpoint: WebhookEndpoint; onChange(): void }) {
  const log = usePagedList(
    api.webhooks.deliveries,
    { params: { id: endpoint.id } },
    'Could not load the deliveries. Please try again.',
  );
  const [replaying, setReplaying] = useState<string | null>(null);
  const waiting = log.rows?.some((d) => d.state === 'pending') ?? false;
  const { reload } = log;

  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [waiting, reload]);

  async function replay(d: Delivery) {
    setReplaying(d.id);
    try {
      const row = await api.webhooks.replay({ params: { id: endpoint.id, deliveryId: d.id } });
      log.updateRows((rows) => rows.map((r) => (r.id === row.id ? row : r)));
      toast.success(messages.webhookReplayed);
      onChange();
    } catch (error) {
      toast.error(errorMessage(error, messages.webhookReplayFailed));
    } finally {
      setReplaying(null);
    }
  }

  const columns: Column<Delivery>[] = [
    {
      header: 'Event',
      rowHeader: true,
      cell: (d) => (
        <span className="inline-flex flex-col items-end sm:items-start">
          <span className="font-mono">{d.eventType}</span>
          <span className="max-w-44 text-xs font-normal break-all text-steel-600">{d.id}</span>
        </span>
      ),
    },
    {
      header: 'Status',
      cell: (d) => (
        <span className="inline-flex flex-col items-end gap-0.5 sm:items-start">
          <State d={d} />
          <span className="text-xs whitespace-nowrap text-steel-600">
            {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
          </span>
        </span>
      ),
    },
    {
      header: 'Response',
      cell: (d) => (
        <span className="inline-flex flex-col items-end gap-0.5 sm:items-start">
          <span className="whitespace-nowrap">
            <span className="font-mono">{d.responseStatus ?? '—'}</span>
            {d.durationMs !== null && <span className="text-steel-600"> · {d.durationMs} ms</span>}
          </span>
          {d.error && <span className="max-w-60 text-xs break-words text-danger">{d.error}</span>}
        </span>
      ),
    },
    {
      header: 'When',
      className: 'whitespace-nowrap',
      cell: (d) =>
        d.state === 'pending' && d.nextAttemptAt && d.attempts > 0 ? (
          <span>
            Next <When at={d.nextAttemptAt} withTime />
          </span>
        ) : (
          <When at={d.lastAttemptAt ?? d.createdAt} withTime />
        ),
    },
    {
      header: 'Action',
      cell: (d) => (
        <button
          type="button"
          className="btn btn-outline btn-sm"
          disabled={replaying !== null || endpoint.state === 'paused'}
          aria-busy={replaying === d.id || undefined}
          title={endpoint.state === 'paused' ? messages.webhookPausedReplay : undefined}
          onClick={() => replay(d)}
        >
          {replaying === d.id ? 'Sending…' : 'Replay'}
          <span className="sr-only">
            {' '}
            {d.eventType} {d.id}
          </span>
        </button>
      ),
    },
  ];

  return (
    <div className="mt-4">
      <div className="mb-2 flex items-center justify-between gap-3">
        <h3 className="text-base font-bold">Deliveries{log.total !== undefined ? ` (${log.total})` : ''}</h3>
        <button type="button" className="btn btn-outline btn-sm" onClick={reload} disabled={log.loading}>
          Refresh<span className="sr-only"> the deliveries</span>
        </button>
      </div>
      <PagedTable
        // Not dimmed on the timed refresh: it would flash every few seconds.
        list={{ ...log, loading: false }}
        loadingLabel="Loading deliveries…"
        pagerLabel="Delivery pages"
        caption={`Deliveries to ${endpoint.url}`}
        columns={columns}
        rowKey={(d) => d.id}
        empty={messages.noWebhookDeliveries}
      />
    </div>
  );
}
