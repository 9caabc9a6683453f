// Delete my account (issue 24): the spec's confirmation ('Are you sure?' / "You won't be able to revert
// this ..."), then a fresh sign-in (the current password, or Google) that the server checks before it
// deletes anything. Afterwards this browser is signed out and lands on the home page with a toast.
import { useState, type FormEvent } from 'react';
import { errorMessage, httpStatus } from '../../client/infra/api';
import { deleteAccount } from '../../client/state/session';
import { flashToast, toast } from '../../client/infra/toast';
import { accountAuthErrorMessage } from '../../lib/auth-errors';
import { messages } from '../../lib/messages';
import { useConfirm } from '../ui/ConfirmDialog';
import { Field } from '../ui/Field';
import { SubmitButton } from '../ui/SubmitButton';
import { useForm } from '../ui/useForm';

export function DeleteAccount({
  email,
  hasPassword,
  isAdmin,
}: {
  email: string;
  hasPassword: boolean;
  isAdmin: boolean;
}) {
  const { values, setErrors, busy, setBusy, bind } = useForm({ password: '' });
  const [failure, setFailure] = useState('');
  const { confirm, dialog } = useConfirm();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFailure('');
    if (hasPassword && !values.password) return setErrors({ password: messages.currentPasswordRequired });
    const sure = await confirm({
      text: (
        <>
          <p>{messages.confirmIrreversible}</p>
          <p className="mt-2 text-sm">Your account {email} and its sign-in will be deleted for good.</p>
        </>
      ),
      confirmLabel: 'Yes, delete my account',
    });
    if (!sure) return;
    setBusy(true);
    try {
      await deleteAccount(hasPassword ? { password: values.password } : { google: true });
      flashToast('success', messages.accountDeleted);
      location.assign('/');
    } catch (error) {
      // The server's refusals carry their own words; the rest are Firebase's (the re-authentication).
      const message =
        httpStatus(error) === undefined
          ? accountAuthErrorMessage(error)
          : errorMessage(error, messages.accountDeleteFailed);
      if (message === messages.currentPasswordWrong) setErrors({ password: message });
      else setFailure(message);
      toast.error(message);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="danger-heading" aria-describedby="danger-text">
      <div id="danger-text" className="space-y-2 text-sm text-steel-700">
        <p>
          Deleting your account removes your profile, your sign-in and your unpaid orders (their units go back on sale).
          Paid orders stay in the shop&rsquo;s books as &lsquo;{messages.deletedCustomer}&rsquo;, and your reviews stay
          under the name you gave, without your email.
        </p>
        {isAdmin && (
          <p>
            The shop&rsquo;s owners cannot delete their account here, and the store always keeps at least one admin.
          </p>
        )}
        <p>You may want to download your data first.</p>
      </div>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        {hasPassword ? (
          <>
            <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
            <div className="w-full sm:max-w-xs">
              <Field
                label="Confirm with your password"
                id="delete-password"
                type="password"
                autoComplete="current-password"
                {...bind('password')}
              />
            </div>
          </>
        ) : (
          <p className="w-full text-sm text-steel-700">You will confirm with your Google account.</p>
        )}
        <SubmitButton busy={busy} busyLabel="Deleting your account…" className="btn-danger max-sm:w-full">
          Delete my account
        </SubmitButton>
      </div>
      {failure && (
        <p role="alert" className="field-error mt-3">
          {failure}
        </p>
      )}
      {dialog}
    </form>
  );
}
