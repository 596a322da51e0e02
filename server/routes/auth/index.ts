import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';

export const authRoutes: FastifyPluginAsync<{ config: Config }> = async () => {};
