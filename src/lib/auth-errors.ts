import { messages } from './messages.ts';

/** Spec point 8: the toast for a Firebase auth error code (plus the cases users expect a clear word on). */
export function authErrorMessage(error: unknown): string {
  const code = (error as { code?: string } | null)?.code ?? '';
  switch (code) {
    case 'auth/invalid-email':
      return messages.authInvalidEmail;
    case 'auth/wrong-password':
    case 'auth/invalid-credential':
    case 'auth/invalid-login-credentials':
      // Current Firebase answers a wrong password (and an unknown user) with invalid-credential.
      return messages.authWrongPassword;
    case 'auth/email-already-in-use':
      return messages.authEmailInUse;
    case 'auth/popup-closed-by-user':
    case 'auth/cancelled-popup-request':
      return messages.authPopupClosed;
    case 'auth/too-many-requests':
      return messages.authTooManyRequests;
    default:
      return messages.authOther;
  }
}

/**
 * The message for a failed re-authentication or password change (the profile's account actions): a
 * wrong current password reads as such (the login's 'Wrong password. Intruder!!' would accuse the
 * owner of the account), and the cases a signed-in user can meet get their own words.
 */
export function accountAuthErrorMessage(error: unknown): string {
  const code = (error as { code?: string } | null)?.code ?? '';
  switch (code) {
    case 'auth/wrong-password':
    case 'auth/invalid-credential':
    case 'auth/invalid-login-credentials':
      return messages.currentPasswordWrong;
    case 'auth/requires-recent-login':
    case 'auth/user-token-expired':
      return messages.recentLoginRequired;
    case 'auth/weak-password':
      return messages.passwordTooShort;
    case 'auth/user-mismatch':
      return messages.googleAccountMismatch;
    case 'auth/no-current-user':
    case 'auth/user-not-found':
      return messages.authNoUser;
    case 'auth/network-request-failed':
      return messages.authNetwork;
    default:
      return authErrorMessage(error);
  }
}
