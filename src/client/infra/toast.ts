// Toasts on every page without paying for React up front: messages queue here, and the
// react-toastify host (toast-host.tsx) is imported on the first toast, then shows them.
// The message type lives with the host, so the two never import each other (a type import is erased:
// the host still loads only on the first toast).
import type { ToastMessage } from './toast-host';
import { FLASH_TOAST_KEY } from '../state/session-store';

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

// A toast for the next page this tab opens, when an action ends by leaving the page (a deleted account
// lands on the home page). Kept in sessionStorage: this tab only, and read once.
const KINDS = new Set<ToastMessage['kind']>(['success', 'error', 'info', 'warning']);

export function flashToast(kind: ToastMessage['kind'], text: string) {
  sessionStorage.setItem(FLASH_TOAST_KEY, JSON.stringify({ kind, text }));
}

/** Shows the toast a previous page left for this one (src/client/page-scripts/header.ts loads this module only then). */
export function showFlashToast() {
  let raw: string | null;
  try {
    raw = sessionStorage.getItem(FLASH_TOAST_KEY);
    if (raw === null) return;
    sessionStorage.removeItem(FLASH_TOAST_KEY);
  } catch {
    return; // storage refused (privacy settings): nothing was left
  }
  try {
    const m = JSON.parse(raw.slice(0, 1000)) as Partial<ToastMessage>;
    if (m.kind && KINDS.has(m.kind) && typeof m.text === 'string') push({ kind: m.kind, text: m.text.slice(0, 300) });
  } catch {
    // not ours, or cut short: drop it
  }
}
