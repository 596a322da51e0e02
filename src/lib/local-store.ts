/**
 * What the screens read from and write to the tablet's database, as one module that is only ever
 * loaded on demand, through local-query.ts: Dexie and the outbox's reads are not part of the first
 * screen's code (docs/ARCHITECTURE.md#start-up).
 */
export { liveQuery } from 'dexie';
export { db, partnerMetaKey, readMeta, writeMeta } from './db';
export { outboxAttention, outboxSummary } from './entries/outbox-queries';
