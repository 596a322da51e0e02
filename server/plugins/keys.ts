/**
 * The server's keys (services/keys.ts), loaded once from the environment or DATA_DIR/keys.json before the
 * plugins that use them: the tokens and hand-over keys (plugins/auth.ts) and the signer of mileage
 * certificates (services/certificates).
 */
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { certificateSigner, type CertificateSigner } from '../services/certificates';
import { loadTokenKeys, type TokenKeys } from '../services/keys';

declare module 'fastify' {
  interface FastifyInstance {
    serverKeys: TokenKeys;
    /** Signs the certificates issued now, with CERTIFICATE_KEY (docs/API.md#mileage-certificates). */
    certificateSigner: CertificateSigner;
  }
}

export const keysPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const keys = await loadTokenKeys(config.dataDir, {
      access: config.accessTokenKey,
      reset: config.resetTokenKey,
      handover: config.handoverKey,
      certificate: config.certificateKey,
    });
    app.decorate('serverKeys', keys);
    app.decorate('certificateSigner', certificateSigner(keys.certificate));
  },
  { name: 'keys', dependencies: ['data-dir-lock'] },
);
