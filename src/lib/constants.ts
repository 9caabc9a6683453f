// Business constants of spec point 9.
export const BRAND = 'Ironcrest Tools';
export const REVIEW_PAGE_SIZES = [2, 5, 10, 15, 20] as const;
export const DEFAULT_REVIEW_PAGE_SIZE = 5;
/** Dashboard lists (users, products, orders): rows a page may ask for, and what the screens ask. */
export const MAX_LIST_PAGE_SIZE = 100;
export const LIST_PAGE_SIZE = 50;
export const HOME_TOOL_COUNT = 6;
/** Tools in one order (POST /orders): a cart, not a bulk import. */
export const MAX_ORDER_LINES = 50;
export const MIN_PASSWORD_LENGTH = 6;
export const REVIEW_NAME_MAX = 20;
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const RATING_STEP = 0.01;
export const TOAST_AUTO_CLOSE_MS = 5000;
export const TOAST_DRAG_PERCENT = 0.8;
export const PROFILE_DIALOG_MS = 1500;
export const COPYRIGHT_YEAR = 2022;
export const BUSINESS_SUMMARY = [
  { value: '100+', label: 'Customers' },
  { value: '120M+', label: 'Annual revenue' },
  { value: '50+', label: 'Tools' },
] as const;
/** Text caps shared by forms and the API, so no field can grow without bound. */
export const LIMITS = {
  shortText: 120,
  address: 300,
  message: 2000,
  description: 2000,
  url: 500,
  maxQuantity: 1_000_000,
  maxPriceCents: 100_000_000,
} as const;
/** Product images: the types and size POST /images accepts (checked again, by content, on the server). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
