/** The three API bases (docs/API.md#bases), configurable at build time, same origin by default. */
export const API_BASES = {
  auth: import.meta.env.VITE_API_AUTH_BASE ?? '/api/auth',
  partner: import.meta.env.VITE_API_PARTNER_BASE ?? '/api/partner',
  public: import.meta.env.VITE_API_PUBLIC_BASE ?? '/api/public',
} as const;

export type ApiBase = keyof typeof API_BASES;

/** Pictures are served from an images path on the API (docs/API.md#get-apiimagesfile). */
export const IMAGES_BASE = import.meta.env.VITE_API_IMAGES_BASE ?? '/api/images';

/** A request that has not answered by then is treated as a network failure (workshop Wi-Fi hangs). */
export const REQUEST_TIMEOUT_MS = 15_000;
