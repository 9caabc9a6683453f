// Add a review (spec points 2 and 5): name (required, at most 20), message, rating 1–5 in steps of
// 0.01. POST /review; the author is taken from the token by the server.
import { useRef, type FormEvent } from 'react';
import { api, errorMessage, serverFieldErrors } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import { messages } from '../../lib/messages';
import { fieldErrors, reviewInputSchema } from '../../lib/schemas';
import { ReviewFields } from '../ui/ReviewFields';
import { ScreenHeader } from '../ui/ScreenHeader';
import { SubmitButton } from '../ui/SubmitButton';
import { useForm } from '../ui/useForm';

const EMPTY = { name: '', Messege: '', ratings: '' };
type Values = typeof EMPTY;

export default function AddReview(_props: { params: Record<string, string> }) {
  // Editable while sending: after a review is sent the first field takes the focus for the next one.
  const { values, setValues, setErrors, busy, setBusy, bind } = useForm<Values>(EMPTY, { disableWhileBusy: false });
  const form = useRef<HTMLFormElement>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = reviewInputSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    try {
      await api.reviews.create({ body: parsed.data });
      toast.success(messages.reviewAdded);
      setValues(EMPTY);
      setErrors({});
      form.current?.querySelector<HTMLInputElement>('input')?.focus();
    } catch (error) {
      setErrors(serverFieldErrors(error) ?? {});
      toast.error(errorMessage(error, 'Your review could not be sent. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <ScreenHeader title="Add a Review">Tell other builders how our tools hold up on the job.</ScreenHeader>
      <form
        ref={form}
        onSubmit={onSubmit}
        noValidate
        className="card max-w-2xl space-y-5 p-6 sm:p-8"
        aria-label="Add a review"
      >
        <ReviewFields bind={bind} rating={values.ratings} rows={5} />
        <SubmitButton busy={busy} busyLabel="Sending…" className="btn-dark">
          Add review
        </SubmitButton>
      </form>
    </>
  );
}
