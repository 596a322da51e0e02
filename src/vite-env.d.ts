/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_AUTH_BASE?: string;
  readonly VITE_API_PARTNER_BASE?: string;
  readonly VITE_API_PUBLIC_BASE?: string;
  readonly VITE_API_IMAGES_BASE?: string;
}

declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
