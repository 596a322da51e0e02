/**
 * With the embedded database, the app holds DATA_DIR's lock from its first step to its last: taken
 * before anything under DATA_DIR is opened or written (database, keys, mail), released on close.
 * A PostgreSQL server (DATABASE_URL) is shared by design and needs none.
 */
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { lockDataDir } from '../db/data-dir-lock';

export const dataDirLockPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    if (config.databaseUrl) return;
    const lock = await lockDataDir(config.dataDir);
    // onClose hooks run in reverse order of registration: this one last, after the database closed.
    app.addHook('onClose', () => lock.release());
  },
  { name: 'data-dir-lock' },
);
