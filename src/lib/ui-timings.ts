// How the browser's messages behave (spec point 9): toasts, and how long the profile's saved message stays.
export const TOAST_AUTO_CLOSE_MS = 5000;
/** How far (a fraction of its width) a toast is dragged before it closes. */
export const TOAST_DRAG_PERCENT = 0.8;
/** The profile's "updated" message shows for 1.5 s. */
export const PROFILE_DIALOG_MS = 1500;
