// The client-only dashboard: the session guard, the side menu by role, and the current screen.
import { useStore } from '@nanostores/react';
import { Suspense, useEffect, useRef, useState, type MouseEvent } from 'react';
import { $path, navigate } from '../../client/state/router';
import { refreshAdmin } from '../../client/state/session';
import { $isAdmin } from '../../client/state/session-store';
import { messages } from '../../lib/messages';
import { RequireAdmin, RequireAuth } from '../ui/Guards';
import { ScreenBoundary } from '../ui/ScreenBoundary';
import { PageSpinner } from '../ui/Spinner';
import { dashboardRoutes, matchRoute } from './routes';

export default function DashboardApp() {
  return (
    <RequireAuth>
      <Dashboard />
    </RequireAuth>
  );
}

function Dashboard() {
  const path = useStore($path);
  const isAdmin = useStore($isAdmin);
  const [menuOpen, setMenuOpen] = useState(false);
  const contentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    refreshAdmin().catch(() => {});
  }, []);

  const matched = matchRoute(path);
  const menu = dashboardRoutes.filter(
    (r) => r.label && (r.audience === 'all' || (isAdmin !== null && (r.audience === 'admin') === isAdmin)),
  );
  const follow = (event: MouseEvent<HTMLAnchorElement>, href: string) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    setMenuOpen(false);
    navigate(href);
    // Keyboard and screen-reader users land on the new screen, not on a menu that may have closed.
    contentRef.current?.focus({ preventScroll: true });
  };

  let content;
  if (!matched) {
    content = <h1 className="text-2xl font-bold">{messages.notFound}</h1>;
  } else {
    const Screen = matched.route.screen;
    const screen = (
      <ScreenBoundary key={path}>
        <Suspense fallback={<PageSpinner />}>
          <Screen params={matched.params} />
        </Suspense>
      </ScreenBoundary>
    );
    content = matched.route.audience === 'admin' ? <RequireAdmin>{screen}</RequireAdmin> : screen;
  }

  return (
    <div className="container-page grid gap-6 py-8 md:grid-cols-[15rem_1fr]">
      <nav aria-label="Dashboard" className="md:sticky md:top-24 md:self-start">
        <button
          type="button"
          className="btn btn-outline w-full md:hidden"
          aria-expanded={menuOpen}
          aria-controls="dashboard-menu"
          onClick={() => setMenuOpen((o) => !o)}
        >
          Dashboard menu
        </button>
        <ul
          id="dashboard-menu"
          className={`card mt-2 flex-col gap-1 p-2 md:mt-0 md:flex ${menuOpen ? 'flex' : 'hidden'}`}
        >
          {menu.map((r) => (
            <li key={r.path}>
              <a
                href={r.path}
                onClick={(e) => follow(e, r.path)}
                aria-current={matched?.route === r ? 'page' : undefined}
                className="block rounded-md px-3 py-2 text-sm font-medium no-underline hover:bg-steel-100 aria-[current=page]:bg-ink aria-[current=page]:text-white"
              >
                {r.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div ref={contentRef} tabIndex={-1} className="min-w-0 outline-none">
        {content}
      </div>
    </div>
  );
}
