import { messages } from '../../lib/messages';
import { toast } from '../infra/toast';

/** Wires the 'Get In Touch' form: validate with the shared schema, send, confirm with a toast. */
export function sendContact(form: HTMLFormElement) {
  const error = form.querySelector<HTMLElement>('[data-contact-error]')!;
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
  button.disabled = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    button.textContent = 'Sending…';
    try {
      // Loaded on the first submit, so the home page ships no validation or HTTP code up front.
      const [{ contactSchema }, { api, errorMessage }] = await Promise.all([
        import('../../lib/schemas'),
        import('../infra/api'),
      ]);
      const parsed = contactSchema.safeParse(Object.fromEntries(new FormData(form)));
      if (!parsed.success) {
        error.textContent = parsed.error.issues[0].message;
        return;
      }
      error.textContent = '';
      await api.contact.send({ body: parsed.data }).catch((e: unknown) => {
        throw new Error(errorMessage(e));
      });
      form.reset();
      toast.success(messages.contactSent);
    } catch (e) {
      error.textContent = (e as Error).message;
    } finally {
      button.disabled = false;
      button.textContent = 'Submit';
    }
  });
}
