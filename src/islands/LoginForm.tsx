import { useEffect, useState, type FormEvent } from 'react';
import { authErrorMessage } from '../lib/auth-errors';
import { messages } from '../lib/messages';
import { emailSchema, fieldErrors, loginSchema } from '../lib/schemas';
import { publicApi } from '../client/infra/public-api';
import { toast } from '../client/infra/toast';
import { Field } from './ui/Field';
import { SubmitButton } from './ui/SubmitButton';
import { useForm } from './ui/useForm';
import { useBrowserValue, useHydrated } from './ui/useHydrated';

/** Which of the three actions is running: each button shows its own progress, all wait for it. */
type Busy = null | 'login' | 'google' | 'reset';

export default function LoginForm({ emulator }: { emulator: boolean }) {
  // The fields stay editable while an action runs (useForm's own busy flag is not used here).
  const { values, setErrors, bind } = useForm({ email: '', password: '' });
  const [busy, setBusy] = useState<Busy>(null);
  // Keep the page to return to when the visitor goes on to sign up.
  const hydrated = useHydrated();
  const search = useBrowserValue(() => location.search, '');
  const orderingTool = useOrderingTool(search);

  async function run(kind: Busy, action: () => Promise<void>) {
    setBusy(kind);
    try {
      await action();
    } catch (error) {
      toast.error(authErrorMessage(error));
    } finally {
      setBusy(null);
    }
  }

  const go = async () => location.assign((await import('../client/state/session')).returnPath());

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = loginSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    await run('login', async () => {
      const { signIn } = await import('../client/state/session');
      await signIn(parsed.data.email, parsed.data.password);
      await go();
    });
  }

  /** The email field, checked, for the reset and (emulator) Google buttons. */
  function typedEmail(): string | null {
    const parsed = emailSchema.safeParse(values.email);
    if (parsed.success) return parsed.data;
    setErrors((e) => ({ ...e, email: messages.invalidEmail }));
    return null;
  }

  async function onReset() {
    const email = typedEmail();
    if (!email) return;
    await run('reset', async () => {
      const { sendPasswordReset } = await import('../client/state/session');
      await sendPasswordReset(email);
      toast.success(messages.resetEmailSent);
    });
  }

  async function onGoogle() {
    const email = emulator ? typedEmail() : undefined;
    if (emulator && !email) return;
    await run('google', async () => {
      const { signInWithGoogle } = await import('../client/state/session');
      await signInWithGoogle(email ?? undefined);
      await go();
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {orderingTool && (
        <p className="rounded-md border border-amber/60 bg-amber/10 p-3 text-sm" role="status">
          {messages.loginToOrder} <strong>{orderingTool}</strong>
        </p>
      )}
      <fieldset disabled={!hydrated} className="space-y-4">
        <Field label="Email" type="email" autoComplete="email" {...bind('email')} />
        <Field label="Password" type="password" autoComplete="current-password" {...bind('password')} />
        <div className="flex justify-end">
          <button
            type="button"
            className="text-sm font-medium text-amber-dark underline disabled:opacity-60"
            onClick={onReset}
            disabled={busy !== null}
          >
            {busy === 'reset' ? 'Sending…' : 'Forget password?'}
          </button>
        </div>
        <SubmitButton
          busy={busy === 'login'}
          busyLabel="Logging in…"
          disabled={busy !== null}
          className="btn-dark w-full"
        >
          Login
        </SubmitButton>
        <div className="flex items-center gap-3 text-xs text-steel-600" aria-hidden="true">
          <span className="h-px flex-1 bg-steel-200" /> OR <span className="h-px flex-1 bg-steel-200" />
        </div>
        <button
          type="button"
          className="btn btn-outline w-full"
          onClick={onGoogle}
          disabled={busy !== null}
          aria-busy={busy === 'google' || undefined}
        >
          <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
            <path
              fill="#FFC107"
              d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
            />
            <path
              fill="#FF3D00"
              d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
            />
            <path
              fill="#4CAF50"
              d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
            />
            <path
              fill="#1976D2"
              d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
            />
          </svg>
          {busy === 'google' ? 'Signing in…' : 'Continue with Google'}
        </button>
        {emulator && (
          <p className="text-xs text-steel-600">Local sign-in emulator: Google sign-in uses the email typed above.</p>
        )}
        <p className="text-center text-sm">
          New to Ironcrest?{' '}
          <a href={`/signup${search}`} className="font-semibold text-amber-dark">
            Create an account
          </a>
        </p>
      </fieldset>
    </form>
  );
}

const TOOL_PAGE = /^\/tools\/([0-9a-f]{24})\/?$/;

/** The name of the tool whose page sent the visitor here to log in (?from=/tools/{id}), read from the store. */
function useOrderingTool(search: string): string | null {
  const id = TOOL_PAGE.exec(new URLSearchParams(search).get('from') ?? '')?.[1];
  const [name, setName] = useState<{ id: string; name: string } | null>(null);
  useEffect(() => {
    if (!id) return;
    let current = true;
    publicApi.tools
      .get({ params: { id } })
      .then((tool) => current && setName({ id, name: tool.name }))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [id]);
  return name && name.id === id ? name.name : null;
}
