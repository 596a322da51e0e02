export * from './codes';
export * from './envelope';
export * from './models';
export * from './odometer';
export * from './readings';
export * from './rules';
export * from './schemas';
export * from './vin';
