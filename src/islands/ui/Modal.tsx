// The one modal shell: a native <dialog> opened with showModal (focus stays inside, the page behind is
// inert), Escape asks the owner to close, and focus returns where it was. ConfirmDialog, ShipDialog and
// RefundDialog put their content in it.
import { useEffect, useRef, type ReactNode } from 'react';

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
