import { SubmitButton } from '../ui/SubmitButton';

/** The Pay button and, in red under the form, the card error (spec point 8). Shared by both card forms. */
export function PayFooter({
  busy,
  cardError,
  disabled,
}: {
  busy: boolean;
  cardError: string | null;
  disabled?: boolean;
}) {
  return (
    <>
      <SubmitButton busy={busy} busyLabel="Paying…" disabled={disabled} className="btn-dark w-full">
        Pay
      </SubmitButton>
      {cardError && (
        <p className="text-sm font-medium text-danger" role="alert" data-testid="card-error">
          {cardError}
        </p>
      )}
    </>
  );
}
