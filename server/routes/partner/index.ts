import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';

export const partnerRoutes: FastifyPluginAsync<{ config: Config }> = async () => {};
