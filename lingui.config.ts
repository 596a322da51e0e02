import { defineConfig } from '@lingui/conf';

/** The sending panel and the parts loaded with it, outside every first load. */
const SYNC_PANEL_SOURCES = [
  '<rootDir>/src/features/sync/components/SyncPanel.tsx',
  '<rootDir>/src/features/sync/components/HandoverSection.tsx',
  '<rootDir>/src/features/sync/components/StorageRiskText.tsx',
  '<rootDir>/src/features/sync/components/StorageAlerts.tsx',
  '<rootDir>/src/features/sync/components/OutboxAlerts.tsx',
  '<rootDir>/src/features/sync/hooks/useHandover.ts',
];

/** Shown only with a certificate, on the garage's screens and on its public page: in both their catalogs. */
const SHARE_LINK_BUTTON = '<rootDir>/src/components/ShareLinkButton.tsx';

/** The dashboard's History and Advices tabs, the correction dialogs, the vehicle's timeline and its certificates, all loaded on demand. */
const HISTORY_SOURCES = [
  'HistoryTable',
  'HistoryCards',
  'HistoryEntry',
  'StatusBadge',
  'VerdictBadge',
  'CorrectEntryDialog',
  'CorrectRepairDialog',
  'AdvicesPanel',
  'VehicleTimeline',
]
  .map((name) => `<rootDir>/src/features/dashboard/components/${name}.tsx`)
  // The history's status badges, worded by the entries module.
  .concat('<rootDir>/src/lib/entries/status-looks.ts')
  // The mileage certificates' button, dialog and lists, on the timeline and in the History, and their
  // share button (also in the certificate's page catalog).
  .concat('<rootDir>/src/features/dashboard/certificates', SHARE_LINK_BUTTON);

export default defineConfig({
  sourceLocale: 'fr',
  locales: ['fr', 'ar', 'en'],
  fallbackLocales: { default: 'fr' },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: [
        '**/node_modules/**',
        '<rootDir>/src/locales/**',
        '<rootDir>/src/features/dashboard/scan/**',
        '<rootDir>/src/features/dashboard/photo/**',
        '<rootDir>/src/features/sync/components/PhotosLine.tsx',
        ...SYNC_PANEL_SOURCES,
        ...HISTORY_SOURCES,
        '<rootDir>/src/features/dashboard/locales/**',
        '<rootDir>/src/features/profile/devices/**',
        '<rootDir>/src/features/certificate/**',
        '<rootDir>/src/features/dashboard/certificates/**',
      ],
    },
    {
      // The History's, the Advices' and the timeline's words load with them (src/features/dashboard/catalog.ts).
      path: '<rootDir>/src/features/dashboard/locales/{locale}/messages',
      include: HISTORY_SOURCES,
    },
    {
      // The scanner's words load with the scanner, outside every first load (docs/PRODUCT.md#scanning-and-the-vin-check).
      path: '<rootDir>/src/features/dashboard/scan/locales/{locale}/messages',
      include: ['<rootDir>/src/features/dashboard/scan'],
      exclude: ['<rootDir>/src/features/dashboard/scan/locales/**'],
    },
    {
      // The sending panel's words load with the panel and the outbox's and storage's alerts (src/features/sync/catalog.ts).
      path: '<rootDir>/src/features/sync/locales/{locale}/messages',
      include: SYNC_PANEL_SOURCES,
    },
    {
      // The odometer photo's words load with its parts (the form's field, the storage's photo line), after the form is typeable.
      path: '<rootDir>/src/locales/photo/{locale}/messages',
      include: ['<rootDir>/src/features/dashboard/photo', '<rootDir>/src/features/sync/components/PhotosLine.tsx'],
    },
    {
      // The connected devices' words load with the profile's devices section and its sign-out choice (docs/PRODUCT.md#connected-devices).
      path: '<rootDir>/src/locales/devices/{locale}/messages',
      include: ['<rootDir>/src/features/profile/devices'],
    },
    {
      // A certificate's public page's words load with the page (src/lib/certificate-catalog.ts, docs/PRODUCT.md#mileage-certificate).
      path: '<rootDir>/src/locales/certificate/{locale}/messages',
      include: ['<rootDir>/src/features/certificate', SHARE_LINK_BUTTON],
    },
  ],
  format: 'po',
  compileNamespace: 'ts',
});
