// The one modal shell: a native <dialog> opened with showModal (focus stays inside, the page behind is
// inert), Escape asks the owner to close, and focus returns where it was. ConfirmDialog and FormDialog
// (below: the ship, refund and quote forms) put their content in it.
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';

interface Props {
  /** The id of the element that names the dialog (its heading). */
  labelledBy: string;
  describedBy?: string;
  /** Escape (the dialog's cancel): the owner decides, e.g. not while a request is on its way. */
  onCancel(): void;
  children: ReactNode;
}

export function Modal({ labelledBy, describedBy, onCancel, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current!;
    const previous = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => previous?.focus();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg p-0 shadow-2xl backdrop:bg-black/50"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      {children}
    </dialog>
  );
}

/** A modal form: its title and a line of what it does, then the fields and actions (`children`). */
export function FormDialog({
  id,
  title,
  intro,
  busy,
  onClose,
  onSubmit,
  children,
}: {
  /** Prefix of the title's id, which names the dialog. */
  id: string;
  title: ReactNode;
  intro: ReactNode;
  /** While sending, Escape does not close it. */
  busy: boolean;
  onClose(): void;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  children: ReactNode;
}) {
  return (
    <Modal labelledBy={`${id}-title`} onCancel={() => !busy && onClose()}>
      <form className="grid gap-4 p-6" onSubmit={onSubmit} noValidate>
        <div>
          <h2 id={`${id}-title`} className="text-xl font-bold">
            {title}
          </h2>
          <p className="mt-1 text-sm text-steel-600">{intro}</p>
        </div>
        {children}
      </form>
    </Modal>
  );
}
