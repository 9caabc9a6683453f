import { createRoot } from 'react-dom/client';
import { ToastContainer, toast } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';
import { TOAST_AUTO_CLOSE_MS, TOAST_DRAG_PERCENT } from '../lib/constants';
import type { ToastMessage } from './toast';

/** Mounts the one toast container (spec: top-right, 5000 ms, drag-to-dismiss 80%) and returns its show function. */
export function mount() {
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
