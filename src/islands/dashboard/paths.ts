// The dashboard's URLs (spec point 2): path, menu label and who sees it. No React here, so the Astro
// page builds its static paths from this list; routes.ts gives each one its screen.
export type Audience = 'all' | 'user' | 'admin';
export interface DashboardPath {
  path: string;
  label?: string;
  audience: Audience;
}

export const dashboardPaths = {
  profile: { path: '/dashboard', label: 'Profile', audience: 'all' },
  addReview: { path: '/dashboard/myreview', label: 'Add a Review', audience: 'user' },
  myOrders: { path: '/dashboard/myorders', label: 'My Orders', audience: 'user' },
  // Issue 26: a buyer's quote requests, and the admins' screen that answers them.
  myQuotes: { path: '/dashboard/myquotes', label: 'My Quotes', audience: 'user' },
  allUsers: { path: '/dashboard/allusers', label: 'Make Admin', audience: 'admin' },
  addProduct: { path: '/dashboard/addproduct', label: 'Add products', audience: 'admin' },
  manageProducts: { path: '/dashboard/allproduct', label: 'Manage product', audience: 'admin' },
  manageAllOrders: { path: '/dashboard/manageallproducts', label: 'Manage All Orders', audience: 'admin' },
  quotes: { path: '/dashboard/quotes', label: 'Quotes', audience: 'admin' },
  // Issue 27: what an order charges besides its goods (delivery, VAT), and the discount codes.
  settings: { path: '/dashboard/settings', label: 'Settings', audience: 'admin' },
  discounts: { path: '/dashboard/discounts', label: 'Discounts', audience: 'admin' },
  // Not in the spec's menu: reviews cannot be deleted, so an admin hides spam here.
  manageReviews: { path: '/dashboard/managereviews', label: 'Manage Reviews', audience: 'admin' },
  // Issue 25: what visitors send through 'Get In Touch', and the admins' audit log.
  messages: { path: '/dashboard/messages', label: 'Messages', audience: 'admin' },
  activity: { path: '/dashboard/activity', label: 'Activity', audience: 'admin' },
  // After the sale: what the store emailed (admin).
  emails: { path: '/dashboard/emails', label: 'Emails', audience: 'admin' },
  // Issue 26: the catalogue and orders as CSV, and the catalogue back in.
  importExport: { path: '/dashboard/importexport', label: 'Import / Export', audience: 'admin' },
  // Issue 29: the endpoints other software gives the store, and what was sent to them.
  webhooks: { path: '/dashboard/webhooks', label: 'Webhooks', audience: 'admin' },
  // Carries an order id, so it is not prebuilt (pages/dashboard/payment/[id].astro renders on request).
  payment: { path: '/dashboard/payment/:id', audience: 'all' },
  // An order's page, for its buyer and admins (pages/dashboard/orders/[id].astro, on request).
  orderDetail: { path: '/dashboard/orders/:id', audience: 'all' },
  // Issue 26, from Manage products: a product's edit form and its stock history (pages/dashboard/
  // editproduct/[id].astro and stock/[id].astro, on request).
  editProduct: { path: '/dashboard/editproduct/:id', audience: 'admin' },
  stockHistory: { path: '/dashboard/stock/:id', audience: 'admin' },
} as const satisfies Record<string, DashboardPath>;

export type DashboardScreen = keyof typeof dashboardPaths;

/** The `[...path]` parameter of each prebuilt dashboard page: every path without a `:param`. */
export function prebuiltDashboardPaths(): (string | undefined)[] {
  return Object.values(dashboardPaths)
    .map((p): string => p.path)
    .filter((path) => !path.includes(':'))
    .map((path) => path.replace(/^\/dashboard\/?/, '') || undefined);
}
