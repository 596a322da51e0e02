/** SPEC.md section 9: at most 3 toasts at once, each hidden after 5000 ms. */
export const TOAST_DURATION_MS = 5000;
export const TOAST_MAX = 3;
