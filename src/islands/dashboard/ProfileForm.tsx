// Profile edit mode: name, education, phone number (a number input, spec point 5), social link
// (a URL) and address. Update saves with PUT /userupdate/{email} and shows the spec's message for 1.5 s.
import { useEffect, useRef, type FormEvent } from 'react';
import { api, errorMessage, serverFieldErrors } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import { PROFILE_DIALOG_MS } from '../../lib/ui-timings';
import { formatDate } from '../../lib/dates';
import { messages } from '../../lib/messages';
import { fieldErrors, profileUpdateSchema, type ProfileUpdate } from '../../lib/schemas';
import { Field, TextAreaField } from '../ui/Field';
import { SubmitButton } from '../ui/SubmitButton';
import { useForm } from '../ui/useForm';
import type { UserProfile } from '../../lib/entities';

type Values = Record<keyof ProfileUpdate, string>;

interface Props {
  profile: UserProfile;
  onSaved(saved: ProfileUpdate): void;
  onCancel(): void;
}

export function ProfileForm({ profile, onSaved, onCancel }: Props) {
  const { values, setErrors, busy, setBusy, bind } = useForm<Values>({
    name: profile.name,
    education: profile.education,
    // A number input cannot show '+' or spaces, so start from the digits.
    phoneNumber: profile.phoneNumber.replace(/\D/g, ''),
    social: profile.social,
    address: profile.address,
  });
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector<HTMLInputElement>('input')?.focus(), []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = profileUpdateSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      await api.users.update({ params: { email: profile.email }, body: parsed.data });
      // Keep the sign-in display name (header, greeting) in step with the profile name.
      await import('../../client/state/session').then((s) => s.updateDisplayName(parsed.data.name)).catch(() => {});
      toast.success(messages.profileUpdated, PROFILE_DIALOG_MS);
      onSaved(parsed.data);
    } catch (error) {
      setErrors(serverFieldErrors(error) ?? {});
      toast.error(errorMessage(error, 'Your profile could not be saved. Please try again.'));
      setBusy(false);
    }
  }

  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-labelledby="edit-profile-heading">
      <h2 id="edit-profile-heading" className="text-lg font-bold">
        Edit your profile
      </h2>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field label="Name" autoComplete="name" {...bind('name')} />
        <Field label="Education" placeholder="e.g. Diploma in Civil Engineering" {...bind('education')} />
        <Field
          label="Phone number"
          type="number"
          autoComplete="tel"
          placeholder="8801712345678"
          {...bind('phoneNumber')}
        />
        <Field
          label="Social link"
          type="url"
          autoComplete="url"
          placeholder="https://www.linkedin.com/in/you"
          {...bind('social')}
        />
        <div className="sm:col-span-2">
          <TextAreaField label="Address" autoComplete="street-address" rows={3} {...bind('address')} />
        </div>
      </div>
      <dl className="mt-4 grid gap-1 text-sm text-steel-600 sm:grid-cols-2">
        <div>
          <dt className="inline font-semibold">Email: </dt>
          <dd className="inline break-all">{profile.email}</dd>
        </div>
        <div>
          <dt className="inline font-semibold">Signed up: </dt>
          <dd className="inline">{formatDate(new Date(profile.signUpDate))}</dd>
        </div>
      </dl>
      <p className="mt-1 text-xs text-steel-600">Your email and sign-up date cannot be changed.</p>
      <div className="mt-6 flex flex-wrap gap-3">
        <SubmitButton busy={busy} busyLabel="Updating…" className="btn-dark">
          Update
        </SubmitButton>
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
