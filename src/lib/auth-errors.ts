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
