/**
 * Once per run of the e2e project: the template DATA_DIR every portal of the run starts from
 * (support/server.ts), migrated and seeded by a real portal, and removed when the run ends.
 */
import fsp from 'node:fs/promises';
import { PORTAL_TEMPLATE_ENV, preparePortalTemplate } from './server';

export default async function setup(): Promise<() => Promise<void>> {
  const templateDir = await preparePortalTemplate();
  // The test files run in worker processes started after this, with this process's environment.
  process.env[PORTAL_TEMPLATE_ENV] = templateDir;
  return async () => {
    delete process.env[PORTAL_TEMPLATE_ENV];
    await fsp.rm(templateDir, { recursive: true, force: true });
  };
}
