/** Mileage certificates: issued, listed and revoked by their garage, read by anyone, checked against the key set. */
export { cityOf } from './content';
export { issueCertificate, type IssueOutcome } from './issue';
export { certificateKeySet } from './key-set';
export { partnerCertificates, publicCertificate, revokeCertificate, vehicleCertificates } from './records';
export { certificateJwk, certificateKeyId, certificateSigner, type CertificateSigner } from './signer';
