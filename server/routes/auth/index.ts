import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { forgotPasswordRoute } from './forgot-password';
import { loginRoute } from './login';
import { logoutRoute } from './logout';
import { refreshRoute } from './refresh';
import { registerRoute } from './register';
import { resetPasswordRoute } from './reset-password';

/** /api/auth: sign-in, registration, session refresh and logout, password reset (docs/API.md#auth-calls). */
export const authRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  await app.register(loginRoute, { config });
  await app.register(registerRoute, { config });
  await app.register(refreshRoute, { config });
  await app.register(logoutRoute, { config });
  await app.register(forgotPasswordRoute, { config });
  await app.register(resetPasswordRoute);
};
