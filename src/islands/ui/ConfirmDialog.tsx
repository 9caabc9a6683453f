// The one confirmation dialog: a native modal <dialog> (focus stays inside, Escape cancels),
// used through useConfirm() → `if (await confirm({...}))`.
import { useCallback, useState, type ReactNode } from 'react';
import { Modal } from './Modal';
import { messages } from '../../lib/messages';

export interface ConfirmOptions {
  title?: string;
  text?: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
}

export function useConfirm() {
  const [request, setRequest] = useState<(ConfirmOptions & { resolve(ok: boolean): void }) | null>(null);
  const confirm = useCallback(
    (options: ConfirmOptions) => new Promise<boolean>((resolve) => setRequest({ ...options, resolve })),
    [],
  );
  const dialog = request ? (
    <ConfirmDialog
      {...request}
      onClose={(ok) => {
        request.resolve(ok);
        setRequest(null);
      }}
    />
  ) : null;
  return { confirm, dialog };
}

function ConfirmDialog({
  title = messages.confirmTitle,
  text,
  confirmLabel = 'Yes',
  danger = true,
  onClose,
}: ConfirmOptions & { onClose(ok: boolean): void }) {
  return (
    <Modal labelledBy="confirm-title" describedBy="confirm-text" onCancel={() => onClose(false)}>
      <div className="p-6">
        <h2 id="confirm-title" className="text-xl font-bold">
          {title}
        </h2>
        <div id="confirm-text" className="mt-2 text-steel-700">
          {text}
        </div>
        <div className="mt-6 flex justify-end gap-3">
          <button type="button" className="btn btn-outline" onClick={() => onClose(false)} autoFocus>
            Cancel
          </button>
          <button type="button" className={`btn ${danger ? 'btn-danger' : 'btn-dark'}`} onClick={() => onClose(true)}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </Modal>
  );
}
