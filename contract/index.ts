export * from './answers';
export * from './certificate';
// Types only: the schemas are fetched with the first certificate call (./certificate-answers.ts).
export type { CertificatePayload, CertificateReading, SignedCertificate } from './certificate-answers';
export * from './codes';
export * from './endpoints';
export * from './envelope';
export * from './models';
export * from './odometer';
export * from './readings';
export * from './rules';
export * from './schemas';
export * from './vin';
export * from './shell';
