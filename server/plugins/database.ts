/** The database as a plugin: opened (or handed in by a test), migrated, seeded, closed with the app. */
import fp from 'fastify-plugin';
import path from 'node:path';
import type { Config } from '../config';
import { openDatabase, type Database, type DatabaseHandle } from '../db/client';
import { seedDatabase } from '../db/seed';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    database: DatabaseHandle;
  }
}

export interface DatabasePluginOptions {
  config: Config;
  /** A handle opened by the caller (tests share one per file); the caller then closes it. */
  database?: DatabaseHandle;
}

export const databasePlugin = fp<DatabasePluginOptions>(
  async (app, { config, database }) => {
    const handle =
      database ??
      (await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') }));
    if (!database) app.addHook('onClose', () => handle.close());
    if (config.migrateOnStart) await handle.migrate();
    if (config.migrateOnStart) await seedDatabase(handle.db, { demo: config.demo, log: app.log });
    app.decorate('database', handle);
    app.decorate('db', handle.db);
  },
  { name: 'database', dependencies: ['data-dir-lock'] },
);
