import { createRoot } from 'react-dom/client';
import { ToastContainer, toast } from 'react-toastify/unstyled';
// The stylesheet as a URL, linked on first toast: imported as CSS it became render-blocking on every page.
import toastifyCss from 'react-toastify/ReactToastify.css?url';
import { TOAST_AUTO_CLOSE_MS, TOAST_DRAG_PERCENT } from '../../lib/ui-timings';

export interface ToastMessage {
  kind: 'success' | 'error' | 'info' | 'warning';
  text: string;
  autoClose?: number | false;
}

/** Mounts the one toast container (spec: top-right, 5000 ms, drag-to-dismiss 80%) and returns its show function. */
export function mount() {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = toastifyCss;
  document.head.append(link);
  const root = document.getElementById('toast-root') ?? document.body.appendChild(document.createElement('div'));
  createRoot(root).render(
    <ToastContainer
      position="top-right"
      autoClose={TOAST_AUTO_CLOSE_MS}
      draggablePercent={TOAST_DRAG_PERCENT * 100}
      newestOnTop
      theme="colored"
    />,
  );
  return (m: ToastMessage) => toast[m.kind](m.text, m.autoClose === undefined ? {} : { autoClose: m.autoClose });
}
