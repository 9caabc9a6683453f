// The foot of a form in a dialog: what went wrong with the whole form (read out as it appears), then
// Cancel and the action, both disabled while it is sent.
import { SubmitButton } from './SubmitButton';

interface Props {
  error?: string;
  busy: boolean;
  onClose: () => void;
  /** The action's label, and what it says while it is sent. */
  label: string;
  busyLabel: string;
  /** An action that cannot be undone (a refund) is red. */
  danger?: boolean;
}

export function DialogActions({ error, busy, onClose, label, busyLabel, danger }: Props) {
  return (
    <>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" className="btn btn-outline" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <SubmitButton busy={busy} busyLabel={busyLabel} className={danger ? 'btn-danger' : 'btn-primary'}>
          {label}
        </SubmitButton>
      </div>
    </>
  );
}
