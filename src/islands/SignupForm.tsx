import { type FormEvent } from 'react';
import { authErrorMessage } from '../lib/auth-errors';
import { fieldErrors, signupSchema } from '../lib/schemas';
import { toast } from '../client/infra/toast';
import { Field } from './ui/Field';
import { SubmitButton } from './ui/SubmitButton';
import { useForm } from './ui/useForm';
import { useBrowserValue, useHydrated } from './ui/useHydrated';

type Name = 'name' | 'email' | 'password' | 'confirmPassword';

export default function SignupForm() {
  const { values, setErrors, busy, setBusy, bind } = useForm<Record<Name, string>>({
    name: '',
    email: '',
    password: '',
    confirmPassword: '',
  });
  const hydrated = useHydrated();
  const search = useBrowserValue(() => location.search, '');

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = signupSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const { signUp, returnPath } = await import('../client/state/session');
      await signUp(parsed.data.name, parsed.data.email, parsed.data.password);
      toast.success('Account created. Check your inbox to verify your email.');
      location.assign(returnPath());
    } catch (error) {
      toast.error(authErrorMessage(error));
      setBusy(false);
    }
  }

  const field = (name: Name, label: string, type: string, autoComplete: string) => (
    <Field label={label} type={type} autoComplete={autoComplete} {...bind(name)} />
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <fieldset disabled={!hydrated} className="space-y-4">
        {field('name', 'Name', 'text', 'name')}
        {field('email', 'Email', 'email', 'email')}
        {field('password', 'Password', 'password', 'new-password')}
        {field('confirmPassword', 'Confirm password', 'password', 'new-password')}
        <SubmitButton busy={busy} busyLabel="Creating your account…" className="btn-dark w-full">
          Sign up
        </SubmitButton>
        <p className="text-center text-sm">
          Already have an account?{' '}
          <a href={`/login${search}`} className="font-semibold text-amber-dark">
            Login
          </a>
        </p>
      </fieldset>
    </form>
  );
}
