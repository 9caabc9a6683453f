// The dashboard's screens (spec point 2): path, menu label, who sees it, and the screen module.
import { lazy, type ComponentType } from 'react';

export type Audience = 'all' | 'user' | 'admin';
export interface DashboardRoute {
  path: string;
  label?: string;
  audience: Audience;
  screen: ComponentType<{ params: Record<string, string> }>;
}

export const dashboardRoutes: DashboardRoute[] = [
  { path: '/dashboard', label: 'Profile', audience: 'all', screen: lazy(() => import('./Profile')) },
  { path: '/dashboard/myreview', label: 'Add a Review', audience: 'user', screen: lazy(() => import('./AddReview')) },
  { path: '/dashboard/myorders', label: 'My Orders', audience: 'user', screen: lazy(() => import('./MyOrders')) },
  { path: '/dashboard/allusers', label: 'Make Admin', audience: 'admin', screen: lazy(() => import('./AllUsers')) },
  { path: '/dashboard/addproduct', label: 'Add products', audience: 'admin', screen: lazy(() => import('./AddProduct')) },
  { path: '/dashboard/allproduct', label: 'Manage product', audience: 'admin', screen: lazy(() => import('./ManageProducts')) },
  { path: '/dashboard/manageallproducts', label: 'Manage All Orders', audience: 'admin', screen: lazy(() => import('./ManageAllOrders')) },
  // Not in the spec's menu: reviews cannot be deleted, so an admin hides spam here.
  { path: '/dashboard/managereviews', label: 'Manage Reviews', audience: 'admin', screen: lazy(() => import('./ManageReviews')) },
  { path: '/dashboard/payment/:id', audience: 'all', screen: lazy(() => import('./Payment')) },
];

/** The route for a path, with its parameters; undefined for an unknown dashboard path. */
export function matchRoute(pathname: string): { route: DashboardRoute; params: Record<string, string> } | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  for (const route of dashboardRoutes) {
    const names: string[] = [];
    const pattern = new RegExp(`^${route.path.replace(/:(\w+)/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
    const match = pattern.exec(path);
    if (match) return { route, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1])])) };
  }
  return undefined;
}
