import type { FastifyPluginAsync } from 'fastify';
import { responseSchemas } from '../../../contract/server';
import type { Config } from '../../config';
import { unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import { coarseAddress } from '../../services/device';
import { familyOfToken, rotateSession, type RotationResult } from '../../services/sessions';
import { loadUser } from '../../services/users';
import { clearRefreshCookie, ignoreJsonBody, readRefreshCookie, sessionAnswer } from './session-cookie';

/**
 * Refreshes per session family and minute (docs/API.md#post-refresh). A tablet refreshes at its start
 * (every page load), in each new tab and every 15 minutes or so: never twice a second for a minute. A
 * loop of refreshes (about 100 a second were seen, each adding a row) is turned away with 429 and
 * Retry-After, the session untouched.
 */
export const REFRESH_MAX_PER_WINDOW = 120;
const REFRESH_WINDOW_MS = 60_000;

/** A revoked family (signed out, from the list of devices, by a password change or reset, or a reuse) says so. */
function failureReason(result: RotationResult | null) {
  return result?.ok === false && (result.reason === 'revoked' || result.reason === 'reused')
    ? 'session_revoked'
    : 'session_expired';
}

/**
 * POST /refresh: exchanges the refresh cookie for a new access token and a new cookie (rotation).
 * Cookie-authenticated, so the X-Origin check runs first. Any failure clears the cookie, so the
 * browser stops presenting a token that can never work again.
 */
export const refreshRoute: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  ignoreJsonBody(app);
  app.post(
    '/refresh',
    { schema: { response: responseSchemas('POST auth /refresh') }, preHandler: app.checkOrigin },
    async (request, reply) => {
      const token = readRefreshCookie(request);
      // Before anything is written: a client refreshing in a loop adds no row past its family's limit.
      const family = token ? await familyOfToken(app.db, token) : null;
      if (family) {
        await app.enforceLimits([
          { key: `refresh:family:${family}`, max: REFRESH_MAX_PER_WINDOW, windowMs: REFRESH_WINDOW_MS },
        ]);
      }
      const result = token
        ? await rotateSession(app.db, token, app.clock(), app.successorKey, coarseAddress(request.ip))
        : null;
      if (result?.ok === false && result.reason === 'reused') {
        request.log.warn('refresh token presented again after rotation: its session family is revoked');
        if (result.revoked) await app.sessionCache.revoked([result.revoked]);
      }
      // A partner deleted meanwhile has no sessions left (cascade), so this is only a safety net.
      const user = result?.ok ? await loadUser(app.db, result.session.userId) : null;
      if (!result?.ok || !user) {
        clearRefreshCookie(reply, config);
        throw unauthorized(failureReason(result));
      }
      return success(reply, await sessionAnswer(app, reply, config, result.session, user));
    },
  );
};
