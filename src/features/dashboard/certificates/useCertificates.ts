/**
 * The certificates a garage issued, as a screen shows them (docs/PRODUCT.md#mileage-certificate): read from
 * the server each time they are shown, since a certificate lives there only, and updated in place when one
 * is issued or revoked. Offline, the list says it cannot be read rather than that there is none.
 */
import { useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { CERTIFICATES_PAGE_DEFAULT, type ApiFailure, type CertificateSummary } from '../../../../contract';
import { isNetworkFailure, type ApiResponse } from '../../../lib/api/client';
import { apiFailureMessage } from '../../../lib/error-messages';
import { useOnline } from '../../../lib/online';
import { listCertificates, listVehicleCertificates } from '../api/certificates';

export type CertificateListState =
  | { status: 'loading' }
  | { status: 'ready'; items: CertificateSummary[]; mayHaveMore: boolean }
  | { status: 'failed'; offline: boolean; message: string };

/** Whose certificates: one vehicle's (its timeline), or all of the garage's (History), a page at a time. */
export type CertificateSource = { kodeId: string } | 'all';

export interface CertificateList {
  state: CertificateListState;
  reload(): void;
  /** The next page of the garage's certificates (History); null when it could not be read. */
  loadMore(): Promise<boolean>;
  /** Puts a certificate just issued, or just revoked, in its place in the list. */
  put(summary: CertificateSummary): void;
}

function firstPage(source: CertificateSource): Promise<ApiResponse<CertificateSummary[]>> {
  return source === 'all' ? listCertificates() : listVehicleCertificates(source.kodeId);
}

/** A failure in the garage's words; `offline` when the server was not reached. */
export function useFailureOf() {
  const { i18n } = useLingui();
  return useCallback(
    (failure: ApiFailure) => ({
      status: 'failed' as const,
      offline: isNetworkFailure(failure),
      message: apiFailureMessage(i18n, failure),
    }),
    [i18n],
  );
}

function placed(items: CertificateSummary[], summary: CertificateSummary): CertificateSummary[] {
  const others = items.filter((item) => item.id !== summary.id);
  return [summary, ...others].sort((a, b) => b.issued_at.localeCompare(a.issued_at) || b.id.localeCompare(a.id));
}

export function useCertificateList(source: CertificateSource): CertificateList {
  const failureOf = useFailureOf();
  const online = useOnline();
  const [attempt, setAttempt] = useState(0);
  const sourceKey = source === 'all' ? 'all' : source.kodeId;
  // Answered for one source and attempt: another source, or a retry, reads as loading until its answer.
  const [answer, setState] = useState<{ for: string; state: CertificateListState } | null>(null);
  const key = `${sourceKey} ${attempt}`;
  // Offline and not read yet: said at once, with no request the browser knows will fail (one would also
  // land while the History's entries are being drawn); read once the connection is back.
  const state: CertificateListState = useMemo(() => {
    if (answer?.for === key) return answer.state;
    return online ? { status: 'loading' } : { status: 'failed', offline: true, message: '' };
  }, [answer, key, online]);

  useEffect(() => {
    if (!online) return;
    let current = true;
    void firstPage(sourceKey === 'all' ? 'all' : { kodeId: sourceKey }).then((result) => {
      if (!current) return;
      setState({
        for: `${sourceKey} ${attempt}`,
        state:
          result.status === 'success'
            ? {
                status: 'ready',
                items: result.data,
                mayHaveMore: sourceKey === 'all' && result.data.length >= CERTIFICATES_PAGE_DEFAULT,
              }
            : failureOf(result),
      });
    });
    return () => {
      current = false;
    };
  }, [sourceKey, attempt, failureOf, online]);

  const reload = useCallback(() => setAttempt((count) => count + 1), []);

  const loadMore = useCallback(async () => {
    if (state.status !== 'ready') return false;
    const result = await listCertificates(state.items.at(-1));
    if (result.status !== 'success') return false;
    setState({
      for: key,
      state: {
        status: 'ready',
        items: [...state.items, ...result.data],
        mayHaveMore: result.data.length >= CERTIFICATES_PAGE_DEFAULT,
      },
    });
    return true;
  }, [state, key]);

  const put = useCallback((summary: CertificateSummary) => {
    setState((now) =>
      now?.state.status === 'ready'
        ? { ...now, state: { ...now.state, items: placed(now.state.items, summary) } }
        : now,
    );
  }, []);

  return { state, reload, loadMore, put };
}
