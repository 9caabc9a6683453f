// Every user-facing text the spec quotes, verbatim (typos included), in one place.
// Forms, API errors and tests import from here; nobody retypes a message.
export const messages = {
  invalidEmail: 'Invalid email',
  passwordTooShort: 'Minimum 6 characters!',
  passwordsDontMatch: "Password's don't match",
  nameRequired: 'Name is required',
  invalidPhone: '*Invalid phone number',
  quantityBelowMinimum: '*Can not lower then minimum quantity',
  quantityAboveAvailable: '*Can not higher then available quantity',
  ratingRange: 'Rating must be between 1 to 5',
  reviewNameTooLong: 'Name must be at most 20 characters',
  orderPlaced: 'Your order is placed succesfully',
  profileUpdated: 'Your profile is updated',
  reviewAdded: 'Review has been added',
  // Review moderation (not in the spec): an admin hides a review from the store, or shows it again.
  reviewHidden: 'The review is hidden from the store',
  reviewShown: 'The review is shown in the store again',
  reviewModerationFailed: 'The review could not be changed. Please try again.',
  resetEmailSent: 'email sent',
  authInvalidEmail: 'Invalid email provided, please provide a valid email',
  authWrongPassword: 'Wrong password. Intruder!!',
  authOther: 'something went wrong',
  authEmailInUse: 'An account with this email already exists. Please log in instead.',
  authPopupClosed: 'The sign-in window was closed before finishing.',
  authTooManyRequests: 'Too many attempts. Please wait a moment and try again.',
  authNoUser: 'No user is logged in',
  makeAdminFailed: 'Failed to make admin',
  paymentSuccess: 'Congrats! Your payment is completed.',
  confirmTitle: 'Are you sure?',
  confirmIrreversible: "You won't be able to revert this ...",
  notFound: '404 Page Not Found',
  contactSent: 'Thanks! Your message has been sent.',
  tooManyUnpaidOrders: (limit: number) =>
    `You already have ${limit} unpaid orders. Pay for or delete one before placing another.`,
  orderTotalTooHigh: 'An order can total at most $999,999.99. Please order fewer units.',
  paymentRefunded:
    'This order was cancelled before your payment went through, so we refunded it in full. The refund reaches your card in 5–10 business days.',
  orderPaidMeanwhile: 'Your payment for this order has just gone through, so it is paid now and was not deleted.',
  paymentUnsettled: 'We could not confirm the state of this order’s payment. Please try again in a minute.',
  // The cart (not in the spec): a line that cannot be met names its tool before the spec's message.
  cartLineRefused: (tool: string, message: string) => `${tool}: ${message}`,
  cartToolGone: 'A tool in your cart is no longer sold. Please remove it.',
  cartAdded: 'Added to your cart',
  cartEmpty: 'Your cart is empty.',
  cartChanged: 'Prices or stock changed since you added these tools. Please check your cart.',
  orderLines: (count: number) => `${count} tools`,
  holdTimeLeft: (minutes: number) => (minutes > 0 ? `${minutes} min left to pay` : 'Time to pay is up'),
} as const;

export type MessageKey = keyof typeof messages;
