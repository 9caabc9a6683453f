// The Webhooks screen's add form (issue 29): the endpoint's URL and the events it wants, checked with the
// server's schema before POST /webhooks. The answer's signing secret is shown once, here, to copy.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorMessage, serverFieldErrors } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import { messages } from '../../lib/messages';
import { fieldErrors, webhookInputSchema } from '../../lib/schemas';
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, type WebhookEvent } from '../../lib/webhooks';
import { Field } from '../ui/Field';
import { SubmitButton } from '../ui/SubmitButton';
import { useForm } from '../ui/useForm';

/** The secret of the endpoint just added, in a box to copy from, until the admin says it is kept. */
function SecretOnce({ url, secret, onDone }: { url: string; secret: string; onDone(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success('The secret is copied');
    } catch {
      toast.error('Could not copy: select the secret and copy it by hand.');
    }
  }
  return (
    <section aria-labelledby="secret-heading" className="card mb-8 border-amber bg-amber/10 p-5 sm:p-6">
      <h2 id="secret-heading" ref={heading} tabIndex={-1} className="text-lg font-bold outline-none">
        Signing secret
      </h2>
      <p className="mt-1 text-sm break-all text-steel-700">
        For <span className="font-mono">{url}</span>
      </p>
      <p className="mt-3 text-sm font-medium text-ink">{messages.webhookSecretOnce}</p>
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-center">
        {/* Text, not an input: the whole secret shows on a phone too; a click selects all of it. */}
        <code
          aria-label="Signing secret"
          className="block min-w-0 grow rounded-md border border-steel-300 bg-white px-3 py-2 text-sm break-all text-ink select-all"
          data-testid="webhook-secret"
        >
          {secret}
        </code>
        <button type="button" className="btn btn-dark shrink-0" onClick={copy}>
          Copy
        </button>
      </div>
      <button type="button" className="btn btn-outline btn-sm mt-4" onClick={onDone}>
        I have kept it
      </button>
    </section>
  );
}

export function WebhookForm({ onCreated }: { onCreated(): void }) {
  const { values, setValues, errors, setErrors, busy, setBusy, bind } = useForm({ url: '' });
  const [events, setEvents] = useState<Set<WebhookEvent>>(new Set());
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);

  const toggle = (event: WebhookEvent, on: boolean) => {
    setEvents((old) => {
      const next = new Set(old);
      if (on) next.add(event);
      else next.delete(event);
      return next;
    });
    setErrors((old) => ({ ...old, events: '' }));
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = webhookInputSchema.safeParse({
      url: values.url,
      events: WEBHOOK_EVENT_TYPES.filter((t) => events.has(t)),
    });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const answer = await api.webhooks.create({ body: parsed.data });
      setCreated({ url: parsed.data.url, secret: answer.secret });
      toast.success(messages.webhookCreated);
      setValues({ url: '' });
      setEvents(new Set());
      onCreated();
    } catch (error) {
      setErrors(serverFieldErrors(error) ?? {});
      toast.error(errorMessage(error, messages.webhookCreateFailed));
    } finally {
      setBusy(false);
    }
  }

  if (created) return <SecretOnce {...created} onDone={() => setCreated(null)} />;
  const all = events.size === WEBHOOK_EVENT_TYPES.length;
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="new-webhook-heading" className="card mb-8 p-5 sm:p-6">
      <h2 id="new-webhook-heading" className="text-lg font-bold">
        New endpoint
      </h2>
      <div className="mt-4 space-y-5">
        <Field
          label="Endpoint URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://erp.example.com/hooks/ironcrest"
          hint="Each event is POSTed here as JSON, signed with the secret you get next."
          {...bind('url')}
        />
        <fieldset aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
          <legend className="label">Events</legend>
          <label className="mb-2 inline-flex items-center gap-2 text-sm font-semibold text-steel-700">
            <input
              type="checkbox"
              checked={all}
              disabled={busy}
              onChange={(e) => {
                setEvents(new Set(e.target.checked ? WEBHOOK_EVENT_TYPES : []));
                setErrors((old) => ({ ...old, events: '' }));
              }}
              className="h-4 w-4 accent-amber-dark"
            />
            All events
          </label>
          <div className="grid gap-x-6 gap-y-2 sm:grid-cols-2">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-start gap-2 text-sm text-steel-700">
                <input
                  type="checkbox"
                  name="events"
                  value={type}
                  checked={events.has(type)}
                  disabled={busy}
                  onChange={(e) => toggle(type, e.target.checked)}
                  className="mt-0.5 h-4 w-4 shrink-0 accent-amber-dark"
                />
                <span>
                  <span className="font-mono font-semibold text-ink">{type}</span>
                  <span className="block text-xs text-steel-600">{WEBHOOK_EVENTS[type]}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.events && (
            <p id="webhook-events-error" className="field-error" role="alert">
              {errors.events}
            </p>
          )}
        </fieldset>
      </div>
      <div className="mt-6">
        <SubmitButton busy={busy} busyLabel="Adding…">
          Add endpoint
        </SubmitButton>
      </div>
    </form>
  );
}
