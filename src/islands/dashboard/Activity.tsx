// Activity (admin; issue 25, not in the spec): the audit log. Every admin action, newest first, with
// when, who, what, on what, and the change (before → after). Read only: nothing here edits the log.
import { api } from '../../client/infra/api';
import { AUDIT_ACTION_TYPES, auditActionLabel, describeChange } from '../../lib/audit';
import type { AuditEntry } from '../../lib/entities';
import { messages } from '../../lib/messages';
import { EmailText, type Column } from '../ui/DataTable';
import { PagedTable } from '../ui/PagedTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { usePagedList } from '../ui/usePagedList';
import { useUrlQuery } from '../ui/useUrlQuery';
import { ViewSelect } from '../ui/ViewSelect';
import { When } from '../ui/When';

const FILTER_FIELDS = ['type'] as const;

const columns: Column<AuditEntry>[] = [
  {
    header: 'Time',
    cell: (e) => <When at={e.at} withTime className="whitespace-nowrap" />,
  },
  {
    header: 'Actor',
    cell: (e) => (
      <span className="[overflow-wrap:anywhere]">
        <EmailText email={e.actor} />
      </span>
    ),
  },
  { header: 'Action', rowHeader: true, cell: (e) => auditActionLabel(e.type) },
  { header: 'Target', cell: (e) => <span className="[overflow-wrap:anywhere]">{e.target}</span> },
  {
    header: 'Change',
    cell: (e) => {
      const lines = describeChange(e.before, e.after);
      if (!lines.length) return <span className="text-steel-500">—</span>;
      return (
        <ul className="m-0 list-none p-0 text-sm [overflow-wrap:anywhere]">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      );
    },
  },
];

export default function Activity(_props: { params: Record<string, string> }) {
  const [view, setView] = useUrlQuery(FILTER_FIELDS);
  const type = AUDIT_ACTION_TYPES.find((t) => t === view.type);
  const log = usePagedList(api.audit.list, { query: { type } }, 'Could not load the activity. Please try again.');

  return (
    <>
      <ScreenHeader title="Activity" total={log.total} noun={type ? `“${auditActionLabel(type)}” actions` : 'actions'}>
        Every admin action, newest first: who did what, and what changed.
      </ScreenHeader>
      <div className="mb-4 max-w-xs">
        <ViewSelect
          id="activity-type"
          label="Action"
          value={type ?? ''}
          onChange={(type) => setView({ type })}
          options={[['', 'All actions'], ...AUDIT_ACTION_TYPES.map((t) => [t, auditActionLabel(t)] as const)]}
        />
      </div>
      <PagedTable
        list={log}
        pagerLabel="Activity pages"
        caption="Activity"
        columns={columns}
        rowKey={(e) => String(e.seq)}
        empty={type ? `No “${auditActionLabel(type)}” actions yet.` : messages.noActivity}
      />
    </>
  );
}
