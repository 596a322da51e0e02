import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';

export const publicRoutes: FastifyPluginAsync<{ config: Config }> = async () => {};
