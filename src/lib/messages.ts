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
} as const;

export type MessageKey = keyof typeof messages;
