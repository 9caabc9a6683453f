// "Review this tool" on a tool's page: a buyer with a paid order for it posts one review (spec point 5's
// rules and messages); anyone else is told why not. The server decides again on the post.
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, enc, errorMessage, httpStatus, serverFieldErrors } from '../client/infra/api';
import { $user, accessToken } from '../client/state/session-store';
import { toast } from '../client/infra/toast';
import { REVIEW_NAME_MAX } from '../lib/limits';
import { messages } from '../lib/messages';
import { reviewErrors } from '../lib/review-rules';
import { ReviewFields } from './ui/ReviewFields';
import { Spinner } from './ui/Spinner';
import { SubmitButton } from './ui/SubmitButton';
import { useForm } from './ui/useForm';

type Status = 'checking' | 'failed' | 'can' | 'notBuyer' | 'reviewed' | 'posted';

interface Props {
  toolId: string;
  hydrated: boolean;
  /** Called after a post; resolves false when the fresh reviews could not be read. */
  onPosted: () => Promise<boolean>;
}

export function ReviewThisTool({ toolId, hydrated, onPosted }: Props) {
  const user = useStore($user);
  const signedIn = hydrated && user !== null && accessToken() !== null;
  // The answer for this user and attempt (a retry is a new attempt); until it comes, 'checking'.
  const key = `${signedIn ? user.uid : ''}:${toolId}`;
  const [attempt, setAttempt] = useState(0);
  // The form opens on request, so the reviews stay close to the summary on a phone.
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<{ key: string; status: Status } | null>(null);
  const status: Status = answer?.key === `${key}:${attempt}` ? answer.status : 'checking';
  const setStatus = (next: Status) => setAnswer({ key: `${key}:${attempt}`, status: next });

  useEffect(() => {
    if (!signedIn) return;
    let current = true;
    const settle = (next: Status) => current && setAnswer({ key: `${key}:${attempt}`, status: next });
    api.reviews
      .eligibility({ params: { id: toolId } })
      .then((found) => settle(found.canReview ? 'can' : (found.reason ?? 'notBuyer')))
      .catch(() => settle('failed'));
    return () => {
      current = false;
    };
  }, [signedIn, key, attempt, toolId]);

  let body;
  if (!hydrated) body = null;
  else if (!signedIn)
    body = (
      <a href={`/login?from=${enc(`/tools/${toolId}`)}`} className="btn btn-dark">
        {messages.reviewLogIn}
      </a>
    );
  else if (status === 'checking') body = <Spinner label="Checking whether you can review this tool…" />;
  else if (status === 'failed')
    body = (
      <div role="alert" className="text-sm text-danger">
        <p>Could not check whether you can review this tool.</p>
        <button type="button" className="btn btn-outline btn-sm mt-2" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </div>
    );
  else if (status === 'notBuyer')
    body = (
      <p className="text-sm text-steel-700">
        <strong>{messages.reviewBuyersOnly}</strong>. Once your order of it is paid, you can review it here.
      </p>
    );
  else if (status === 'reviewed' || status === 'posted')
    body = (
      <p className="text-sm font-semibold text-success" role="status">
        {status === 'posted' ? `${messages.reviewAdded}.` : messages.reviewAlreadyPosted}
      </p>
    );
  else if (!open)
    body = (
      <button type="button" className="btn btn-dark w-full" aria-expanded="false" onClick={() => setOpen(true)}>
        Write a review
      </button>
    );
  else
    body = (
      <ReviewForm
        toolId={toolId}
        name={user?.displayName ?? ''}
        onPosted={async () => {
          setStatus('posted');
          if (!(await onPosted())) toast.info('Your review is posted. Reload the page to see it.');
        }}
        onRefused={(reason) => setStatus(reason)}
      />
    );

  return (
    <section className="card p-5" aria-labelledby="review-this-tool">
      <h3 id="review-this-tool" className="text-lg font-bold">
        Review this tool
      </h3>
      <p className="mt-1 mb-4 text-sm text-steel-600">Bought it? Tell other builders how it held up.</p>
      {body}
    </section>
  );
}

const EMPTY = { name: '', Messege: '', ratings: '' };

function ReviewForm({
  toolId,
  name,
  onPosted,
  onRefused,
}: {
  toolId: string;
  name: string;
  onPosted: () => Promise<void>;
  onRefused: (reason: 'notBuyer' | 'reviewed') => void;
}) {
  const { values, setErrors, busy, setBusy, bind } = useForm({ ...EMPTY, name: name.slice(0, REVIEW_NAME_MAX) });
  const form = useRef<HTMLFormElement>(null);
  // Opened by "Write a review": the message is what is left to write.
  useEffect(() => form.current?.querySelector<HTMLElement>('textarea')?.focus(), []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const errors = reviewErrors(values);
    setErrors(errors);
    if (Object.keys(errors).length) {
      requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    try {
      await api.reviews.create({
        body: { name: values.name.trim(), Messege: values.Messege.trim(), ratings: Number(values.ratings), toolId },
      });
      toast.success(messages.reviewAdded);
      await onPosted();
    } catch (error) {
      const status = httpStatus(error);
      if (status === 403 || status === 409) {
        toast.error(errorMessage(error));
        onRefused(status === 403 ? 'notBuyer' : 'reviewed');
        return;
      }
      setErrors(serverFieldErrors(error) ?? {});
      toast.error(errorMessage(error, 'Your review could not be sent. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={form} onSubmit={onSubmit} noValidate className="space-y-4" aria-labelledby="review-this-tool">
      <ReviewFields bind={bind} rating={values.ratings} idPrefix="tool-review" />
      <SubmitButton busy={busy} busyLabel="Posting your review…" className="btn-dark w-full">
        Post review
      </SubmitButton>
    </form>
  );
}
