// The company as the storefront presents it (spec point 9): its name, the footer's year and the home
// page's business summary.
export const BRAND = 'Ironcrest Tools';
export const COPYRIGHT_YEAR = 2022;
export const BUSINESS_SUMMARY = [
  { value: '100+', label: 'Customers' },
  { value: '120M+', label: 'Annual revenue' },
  { value: '50+', label: 'Tools' },
] as const;
