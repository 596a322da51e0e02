/**
 * The contract as the server (and its tests) read it: all that the PWA shares (./index.ts), and the whole
 * table of the calls' answers with the certificates' part. The PWA imports ./index.ts only: every module
 * re-exported there is fetched with its first screen, and the certificates' answers are fetched with the
 * first certificate call instead (src/lib/api/answer-schemas.ts, docs/ARCHITECTURE.md#start-up).
 */
export * from './index';
export * from './certificate-answers';
export * from './endpoint-list';
