// Change password (issue 24): the current password re-authenticates, then Firebase stores the new one
// (the spec's password rules). The user stays signed in. Google-only accounts have no password here.
import { useState, type FormEvent } from 'react';
import { changePassword } from '../../client/state/session';
import { toast } from '../../client/infra/toast';
import { accountAuthErrorMessage } from '../../lib/auth-errors';
import { MIN_PASSWORD_LENGTH } from '../../lib/limits';
import { messages } from '../../lib/messages';
import { Field } from '../ui/Field';
import { SubmitButton } from '../ui/SubmitButton';
import { useForm } from '../ui/useForm';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Which field a Firebase refusal is about, if one. */
const fieldOf = (message: string) =>
  message === messages.currentPasswordWrong
    ? 'currentPassword'
    : message === messages.passwordTooShort
      ? 'newPassword'
      : null;

export function ChangePassword({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const { values, setValues, setErrors, busy, setBusy, bind } = useForm(EMPTY);
  const [failure, setFailure] = useState('');

  if (!hasPassword) {
    return (
      <p className="text-sm text-steel-700" data-testid="password-managed-by-google">
        {messages.passwordManagedByGoogle}{' '}
        <a
          href="https://myaccount.google.com/security"
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium text-amber-dark underline"
        >
          Manage it in your Google Account
        </a>
      </p>
    );
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFailure('');
    // The schemas (and zod) load with the first submit, not with the profile: most visits change nothing.
    let schemas: typeof import('../../lib/schemas');
    try {
      schemas = await import('../../lib/schemas');
    } catch {
      // Offline, or a build replaced since the page loaded: said, not a silent button.
      setFailure(messages.codeLoadFailed);
      toast.error(messages.codeLoadFailed);
      return;
    }
    const { fieldErrors, passwordChangeSchema } = schemas;
    const parsed = passwordChangeSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      await changePassword(parsed.data.currentPassword, parsed.data.newPassword);
      setValues(EMPTY);
      setErrors({});
      toast.success(messages.passwordChanged);
    } catch (error) {
      const message = accountAuthErrorMessage(error);
      const field = fieldOf(message);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
      toast.error(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="password-heading">
      {/* For password managers: whose password this is. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <div className="grid gap-4 lg:grid-cols-3">
        <Field label="Current password" type="password" autoComplete="current-password" {...bind('currentPassword')} />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          {...bind('newPassword')}
        />
        <Field label="Confirm new password" type="password" autoComplete="new-password" {...bind('confirmPassword')} />
      </div>
      {failure && (
        <p role="alert" className="field-error mt-3">
          {failure}
        </p>
      )}
      <div className="mt-5">
        <SubmitButton busy={busy} busyLabel="Changing password…" className="btn-dark max-sm:w-full">
          Change password
        </SubmitButton>
      </div>
    </form>
  );
}
