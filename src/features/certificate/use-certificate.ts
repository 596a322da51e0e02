/**
 * A certificate as its page shows it: fetched, then checked in the browser (./verify.ts), or why it
 * could not be fetched. Loading, a number no certificate has, and a failure to try again are the page's
 * other states.
 */
import { useEffect, useState } from 'react';
import type { ApiFailure, PublicCertificate } from '../../../contract';
import { getCertificateKeys } from '../../lib/api/certificate-keys';
import { getCertificate } from './api/get-certificate';
import { verifyCertificate, type Verification } from './verify';

export type CertificateState =
  | { status: 'loading' }
  | { status: 'not_found' }
  | { status: 'failed'; failure: ApiFailure }
  | { status: 'ready'; answer: PublicCertificate; verification: Verification };

async function loadCertificate(id: string, signal: AbortSignal): Promise<CertificateState> {
  const result = await getCertificate(id, signal);
  if (result.status !== 'success') {
    return result.code === 404 ? { status: 'not_found' } : { status: 'failed', failure: result };
  }
  const loadKeys = (fresh: boolean) => getCertificateKeys({ fresh, signal });
  const verification = await verifyCertificate(result.data.certificate, id, loadKeys, globalThis.crypto?.subtle);
  return { status: 'ready', answer: result.data, verification };
}

/** The certificate with this id (normalised); `retry` fetches and checks it again. */
export function useCertificate(id: string): { state: CertificateState; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<CertificateState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    void loadCertificate(id, controller.signal).then((next) => {
      if (!controller.signal.aborted) setState(next);
    });
    return () => controller.abort();
  }, [id, attempt]);

  const retry = () => {
    setState({ status: 'loading' });
    setAttempt((count) => count + 1);
  };
  return { state, retry };
}
