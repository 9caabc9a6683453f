// The domain's limits (spec point 9 and our own caps): page sizes, rating range, text and image caps.
// Shared by forms, the API's schemas and the tests, so a limit is written once.

/** Reviews paginator (spec point 4): the sizes it offers and the one it starts with. */
export const REVIEW_PAGE_SIZES = [2, 5, 10, 15, 20] as const;
export const DEFAULT_REVIEW_PAGE_SIZE = 5;
/**
 * A tool's reviews: how many its page shows and how much of each message (the page must fit the first
 * round trip, and a message may hold 2,000 characters; the island shows the rest), and how many one
 * API call may ask for.
 */
export const TOOL_PAGE_REVIEWS = 3;
export const TOOL_PAGE_REVIEW_CHARS = 300;
export const TOOL_REVIEWS_PAGE_SIZE = 5;
export const MAX_TOOL_REVIEWS_PAGE_SIZE = 20;
/** Dashboard lists (users, products, orders): rows a page may ask for, and what the screens ask. */
export const MAX_LIST_PAGE_SIZE = 100;
export const LIST_PAGE_SIZE = 50;
/** Tools on the home page's grid. */
export const HOME_TOOL_COUNT = 6;
/** Quote requests one buyer may have waiting for the shop's answer at once (POST /quotes). */
export const MAX_OPEN_QUOTES = 20;
/** Tools in one order (POST /orders): a cart, not a bulk import. */
export const MAX_ORDER_LINES = 50;
export const MIN_PASSWORD_LENGTH = 6;
/** Deleting one's account needs a sign-in (re-authentication) at most this old. */
export const REAUTH_MAX_AGE_MS = 5 * 60_000;
export const REVIEW_NAME_MAX = 20;
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const RATING_STEP = 0.01;
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

/** Stripe's largest charge ($999,999.99); it also keeps every amount inside a 32-bit integer column. */
export const MAX_ORDER_TOTAL_CENTS = 99_999_999;
