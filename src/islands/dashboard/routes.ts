// The dashboard's screens: each path of paths.ts with the screen module it shows, loaded on demand.
import { lazy, type ComponentType } from 'react';
import { withoutTrailingSlashes } from '../../lib/text';
import { dashboardPaths, type DashboardPath, type DashboardScreen } from './paths';

export interface DashboardRoute extends DashboardPath {
  screen: ComponentType<{ params: Record<string, string> }>;
}

const screens: Record<DashboardScreen, DashboardRoute['screen']> = {
  profile: lazy(() => import('./Profile')),
  addReview: lazy(() => import('./AddReview')),
  myOrders: lazy(() => import('./MyOrders')),
  myQuotes: lazy(() => import('./MyQuotes')),
  allUsers: lazy(() => import('./AllUsers')),
  addProduct: lazy(() => import('./AddProduct')),
  manageProducts: lazy(() => import('./ManageProducts')),
  manageAllOrders: lazy(() => import('./ManageAllOrders')),
  manageReviews: lazy(() => import('./ManageReviews')),
  messages: lazy(() => import('./Messages')),
  activity: lazy(() => import('./Activity')),
  quotes: lazy(() => import('./Quotes')),
  settings: lazy(() => import('./Settings')),
  discounts: lazy(() => import('./Discounts')),
  emails: lazy(() => import('./Emails')),
  importExport: lazy(() => import('./ImportExport')),
  webhooks: lazy(() => import('./Webhooks')),
  payment: lazy(() => import('./Payment')),
  orderDetail: lazy(() => import('./OrderDetail')),
  editProduct: lazy(() => import('./EditProduct')),
  stockHistory: lazy(() => import('./StockHistory')),
};

export const dashboardRoutes: DashboardRoute[] = Object.entries(dashboardPaths).map(([name, path]) => ({
  ...path,
  screen: screens[name as DashboardScreen],
}));

/** The route for a path, with its parameters; undefined for an unknown dashboard path. */
export function matchRoute(pathname: string): { route: DashboardRoute; params: Record<string, string> } | undefined {
  const path = withoutTrailingSlashes(pathname) || '/';
  for (const route of dashboardRoutes) {
    const names: string[] = [];
    const pattern = new RegExp(
      `^${route.path.replace(/:(\w+)/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`,
    );
    const match = pattern.exec(path);
    if (match) return { route, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1])])) };
  }
  return undefined;
}
