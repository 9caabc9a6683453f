// The header's session bits on every page: plain script over the session store (no React, no Firebase).
import { $user, FLASH_TOAST_KEY } from '../state/session-store';

function render() {
  const user = $user.get();
  document.documentElement.dataset.session = user ? 'in' : 'out';
  for (const el of document.querySelectorAll<HTMLElement>('[data-session-name]')) {
    el.textContent = user?.displayName || user?.email || '';
    el.title = el.textContent;
  }
}

$user.subscribe(render);

// A toast the previous page left for this one (e.g. 'Your account has been deleted'): the toast module
// loads only then, so no page pays for it up front.
try {
  if (sessionStorage.getItem(FLASH_TOAST_KEY)) void import('../infra/toast').then((t) => t.showFlashToast());
} catch {
  // storage refused (privacy settings): nothing was left
}

for (const button of document.querySelectorAll<HTMLButtonElement>('[data-sign-out]')) {
  button.addEventListener('click', async () => {
    button.disabled = true;
    const { signOutAndGoHome } = await import('../state/session');
    await signOutAndGoHome();
  });
}

// The menu (a side drawer below 1024 px): its button toggles it with aria-expanded; Escape and the
// backdrop ([data-close=<id>]) close it.
for (const toggle of document.querySelectorAll<HTMLButtonElement>('[data-toggle]')) {
  const target = document.getElementById(toggle.dataset.toggle!);
  if (!target) continue;
  const set = (open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open));
    target.dataset.open = String(open);
    if (open) target.querySelector<HTMLElement>('a, button')?.focus();
  };
  toggle.addEventListener('click', () => set(toggle.getAttribute('aria-expanded') !== 'true'));
  target.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      set(false);
      toggle.focus();
    }
  });
  for (const closer of document.querySelectorAll(`[data-close="${target.id}"]`))
    closer.addEventListener('click', () => set(false));
}
