// Toasts on every page without paying for React up front: messages queue here, and the
// react-toastify host (toast-host.tsx) is imported on the first toast, then shows them.
// The message type lives with the host, so the two never import each other (a type import is erased:
// the host still loads only on the first toast).
import type { ToastMessage } from './toast-host';

type Show = (message: ToastMessage) => void;
let show: Show | undefined;
let loading: Promise<void> | undefined;
const queue: ToastMessage[] = [];

function push(message: ToastMessage) {
  if (show) return show(message);
  queue.push(message);
  loading ??= import('./toast-host').then((host) => {
    show = host.mount();
    for (const m of queue.splice(0)) show(m);
  });
}

export const toast = {
  success: (text: string, autoClose?: number) => push({ kind: 'success', text, autoClose }),
  error: (text: string) => push({ kind: 'error', text }),
  info: (text: string) => push({ kind: 'info', text }),
  warning: (text: string) => push({ kind: 'warning', text }),
};
