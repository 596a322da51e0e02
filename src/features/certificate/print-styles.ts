/**
 * A certificate printed (docs/PRODUCT.md#mileage-certificate): one A4 page, black on white whatever the
 * screen's colour mode, without the portal's header, menus or buttons, with the QR code and the number
 * beside it for whoever holds the paper. In force while the page is on show (CertificatePage's Global).
 */
import type { CSSObject } from '@emotion/react';

/** What the page marks to leave off paper: its buttons, the share field. */
export const PRINT_HIDDEN = { 'data-print-hidden': '' } as const;

export const PRINT_STYLES: CSSObject = {
  '@page': { size: 'A4', margin: '12mm' },
  '@media print': {
    // Smaller type than on screen: the design system's sizes are in rem, so all of it scales with this.
    html: { fontSize: '10px' },
    // !important: the colour mode sets color-scheme on <html> inline, which would leave a dark tablet's
    // page margins dark on paper.
    'html, body': { background: '#fff !important', colorScheme: 'light !important' },
    // The portal's header (logo, language, colour mode), the page's buttons, and whatever the app shows
    // beside the page (toasts, the update prompt).
    'header, [data-print-hidden], #root > :not(:has([data-certificate-page]))': { display: 'none !important' },
    main: { padding: '0 !important' },
    'main > *': { maxWidth: 'none !important', paddingInline: '0 !important' },
    '[data-certificate-page]': {
      gap: '0.6rem !important',
      // Black on white, even from a dark screen: no token of the colour mode reaches the paper.
      '&, & *': {
        color: '#000 !important',
        backgroundColor: 'transparent !important',
        borderColor: '#000 !important',
        boxShadow: 'none !important',
      },
      '& polyline': { stroke: '#000 !important' },
      '& [data-km-chart] [data-verdict="implausible"]': { backgroundColor: '#000 !important' },
      '& section, & tr, & [data-km-chart]': { breakInside: 'avoid' },
      // The notices keep a frame once their colours are gone; the vehicle and its garage side by side.
      '& .chakra-alert__root': { border: '1px solid #000', padding: '0.3rem 0.5rem !important' },
      '& [data-print-columns]': { gridTemplateColumns: '1fr 1fr !important' },
      '& [data-km-chart] [role="img"]': { height: '22mm' },
      // Compact rows, so that some forty readings still fit on the page.
      '& td, & th': { paddingBlock: '1px !important', lineHeight: '1.25' },
    },
    '[data-certificate-qr]': { width: '32mm', height: '32mm' },
  },
};
