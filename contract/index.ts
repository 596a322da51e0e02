export * from './codes';
export * from './envelope';
export * from './models';
export * from './rules';
export * from './schemas';
