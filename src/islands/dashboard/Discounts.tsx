// Discounts (admin, issue 27): the create form, and every code with what it gives, its limits and
// what it is doing now. Remove deletes a code no order used; a used one is disabled, so the orders that
// used it keep it (the server decides; the list then shows it Disabled).
import { useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import { formatDate } from '../../lib/dates';
import { discountEffect, discountState, discountUses, type DiscountState } from '../../lib/discount-state';
import type { Discount } from '../../lib/entities';
import { messages } from '../../lib/messages';
import { formatCents, toCents } from '../../lib/money';
import { Badge, type BadgeTone } from '../ui/Badge';
import { useConfirm } from '../ui/ConfirmDialog';
import { DataTable, type Column } from '../ui/DataTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { Loaded } from '../ui/States';
import { useResource } from '../ui/useResource';
import { DiscountForm } from './DiscountForm';

const tones: Record<DiscountState, BadgeTone> = {
  Active: 'success',
  Scheduled: 'warning',
  Expired: 'neutral',
  'Used up': 'neutral',
  Disabled: 'danger',
};

/** The limits as short lines: minimum goods, dates, uses, once per customer. */
function Limits({ d }: { d: Discount }) {
  const day = (iso: string) => formatDate(new Date(iso));
  const lines = [
    d.minSubtotal !== null && `Goods from ${formatCents(toCents(d.minSubtotal))}`,
    d.startsAt && `From ${day(d.startsAt)}`,
    d.expiresAt && `Ends ${day(d.expiresAt)}`,
    discountUses(d),
    d.oncePerCustomer && 'Once per customer',
  ].filter((l): l is string => Boolean(l));
  return (
    <ul className="space-y-0.5 text-sm">
      {lines.map((l) => (
        <li key={l}>{l}</li>
      ))}
    </ul>
  );
}

export default function Discounts(_props: { params: Record<string, string> }) {
  const list = useResource(api.discounts.list, {}, 'Could not load the discount codes. Please try again.');
  const { confirm, dialog } = useConfirm();
  const [removing, setRemoving] = useState<string | null>(null);

  async function remove(d: Discount) {
    const used = d.uses > 0;
    const ok = await confirm({
      text: used
        ? `${d.code} was used ${d.uses} time${d.uses === 1 ? '' : 's'}, so it is disabled rather than deleted: no new order can use it, and the orders that did keep it.`
        : `${d.code} is deleted. ${messages.confirmIrreversible}`,
      confirmLabel: used ? 'Disable' : 'Remove',
    });
    if (!ok) return;
    setRemoving(d._id);
    try {
      await api.discounts.remove({ params: { id: d._id } });
      list.update((rows) =>
        used ? rows.map((r) => (r._id === d._id ? { ...r, disabled: true } : r)) : rows.filter((r) => r._id !== d._id),
      );
      toast.success(used ? messages.discountDisabled(d.code) : messages.discountRemoved(d.code));
    } catch (error) {
      toast.error(errorMessage(error, messages.discountRemoveFailed));
      list.reload();
    } finally {
      setRemoving(null);
    }
  }

  const columns: Column<Discount>[] = [
    { header: 'Code', rowHeader: true, cell: (d) => <span className="font-mono break-all">{d.code}</span> },
    { header: 'Gives', className: 'whitespace-nowrap', cell: (d) => discountEffect(d) },
    { header: 'Limits', cell: (d) => <Limits d={d} /> },
    {
      header: 'State',
      cell: (d) => {
        const state = discountState(d);
        return <Badge tone={tones[state]}>{state}</Badge>;
      },
    },
    {
      header: 'Action',
      className: 'sm:text-right',
      cell: (d) =>
        d.disabled ? (
          <span className="text-sm text-steel-600">—</span>
        ) : (
          <button
            type="button"
            className="btn btn-outline btn-sm whitespace-nowrap"
            disabled={removing !== null}
            aria-busy={removing === d._id || undefined}
            onClick={() => remove(d)}
          >
            {removing === d._id ? 'Removing…' : 'Remove'}
            <span className="sr-only"> the code {d.code}</span>
          </button>
        ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Discounts" total={list.data?.length} noun="codes">
        Codes buyers type in the cart or on a tool page. One code per order.
      </ScreenHeader>
      <DiscountForm onCreated={list.reload} />
      <Loaded data={list.data} error={list.error} onRetry={list.reload} label="Loading discount codes…">
        {(rows) => (
          <DataTable
            caption="Discount codes"
            columns={columns}
            rows={rows}
            busy={list.loading}
            empty={messages.noDiscounts}
          />
        )}
      </Loaded>
      {dialog}
    </>
  );
}
