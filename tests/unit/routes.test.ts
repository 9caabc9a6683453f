// The dashboard's client-side routing (src/islands/dashboard/routes.ts): every declared path leads back to its
// own screen, ids are read from the URL, nothing else matches, and the prebuilt pages are the paths without
// an id. The only table here is the spec's (point 2 and its menu rule), not a copy of paths.ts.
import { describe, expect, it } from 'vitest';
import { prebuiltDashboardPaths } from '../../src/islands/dashboard/paths';
import { dashboardRoutes, matchRoute } from '../../src/islands/dashboard/routes';

const withId = (path: string) => path.replace(/:(\w+)/g, 'abc123');

describe('dashboard routes', () => {
  it.each(dashboardRoutes.map((r) => [r.path, r] as const))(
    '%s leads to its own screen, with or without a /',
    (path, route) => {
      expect(matchRoute(withId(path))?.route).toBe(route);
      expect(matchRoute(`${withId(path)}/`)?.route).toBe(route);
    },
  );

  it('reads the ids of a URL, decoded', () => {
    expect(matchRoute('/dashboard/payment/abc123')?.params).toEqual({ id: 'abc123' });
    expect(matchRoute('/dashboard/orders/a%20b')?.params).toEqual({ id: 'a b' });
  });

  it('knows no other dashboard path (an unknown one, or an id with more after it)', () => {
    expect(matchRoute('/dashboard/nope')).toBeUndefined();
    expect(matchRoute('/dashboard/payment/abc/more')).toBeUndefined();
    expect(matchRoute('/dashboardx')).toBeUndefined();
  });

  // Spec point 2: the menu shows Profile always; these only to shoppers or only to admins.
  it.each([
    ['/dashboard', 'Profile', 'all'],
    ['/dashboard/myreview', 'Add a Review', 'user'],
    ['/dashboard/myorders', 'My Orders', 'user'],
    ['/dashboard/allusers', 'Make Admin', 'admin'],
    ['/dashboard/addproduct', 'Add products', 'admin'],
    ['/dashboard/allproduct', 'Manage product', 'admin'],
    ['/dashboard/manageallproducts', 'Manage All Orders', 'admin'],
  ])("the spec's %s is '%s' in the menu of %s", (path, label, audience) => {
    expect(matchRoute(path)?.route).toMatchObject({ label, audience });
  });
});

describe('prebuilt dashboard pages', () => {
  it('are the paths without an id, each once, and each leads to its screen', () => {
    const prebuilt = prebuiltDashboardPaths();
    expect(new Set(prebuilt).size).toBe(prebuilt.length);
    const withoutId = dashboardRoutes.filter((r) => !r.path.includes(':'));
    expect(prebuilt).toHaveLength(withoutId.length);
    for (const rest of prebuilt) expect(matchRoute(rest ? `/dashboard/${rest}` : '/dashboard')).toBeDefined();
    expect(prebuilt).not.toContain(expect.stringContaining(':'));
  });
});
