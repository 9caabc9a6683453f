import { describe, expect, it } from 'vitest';
import { prebuiltDashboardPaths } from '../../src/islands/dashboard/paths';
import { matchRoute } from '../../src/islands/dashboard/routes';

describe('dashboard routes (spec point 2)', () => {
  it.each([
    ['/dashboard', 'Profile', 'all'],
    ['/dashboard/', 'Profile', 'all'],
    ['/dashboard/myreview', 'Add a Review', 'user'],
    ['/dashboard/myorders', 'My Orders', 'user'],
    ['/dashboard/myquotes', 'My Quotes', 'user'],
    ['/dashboard/allusers', 'Make Admin', 'admin'],
    ['/dashboard/addproduct', 'Add products', 'admin'],
    ['/dashboard/allproduct', 'Manage product', 'admin'],
    ['/dashboard/manageallproducts', 'Manage All Orders', 'admin'],
    ['/dashboard/quotes', 'Quotes', 'admin'],
    ['/dashboard/settings', 'Settings', 'admin'],
    ['/dashboard/discounts', 'Discounts', 'admin'],
    ['/dashboard/managereviews', 'Manage Reviews', 'admin'],
    ['/dashboard/messages', 'Messages', 'admin'],
    ['/dashboard/activity', 'Activity', 'admin'],
  ])('%s is %s for %s', (path, label, audience) => {
    const matched = matchRoute(path);
    expect(matched?.route.label).toBe(label);
    expect(matched?.route.audience).toBe(audience);
  });
  it('reads the order id of a payment URL', () => {
    expect(matchRoute('/dashboard/payment/abc123')?.params).toEqual({ id: 'abc123' });
  });
  it('knows no other dashboard path', () => {
    expect(matchRoute('/dashboard/nope')).toBeUndefined();
  });
});

describe('prebuilt dashboard pages', () => {
  it('are every dashboard path without a parameter', () => {
    expect(prebuiltDashboardPaths()).toEqual([
      undefined,
      'myreview',
      'myorders',
      'myquotes',
      'allusers',
      'addproduct',
      'allproduct',
      'manageallproducts',
      'quotes',
      'settings',
      'discounts',
      'managereviews',
      'messages',
      'activity',
      'emails',
      'importexport',
      'webhooks',
    ]);
  });
});
