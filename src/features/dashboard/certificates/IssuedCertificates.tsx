/**
 * The History's list of every certificate the garage issued (docs/PRODUCT.md#mileage-certificate), newest
 * first, a page at a time, with revoke. Read from the server when the History opens, below its entries.
 */
import { Button, Heading, Stack } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { notify } from '../../../components/ui/toaster';
import { OPERATION_FAILED } from '../../../lib/error-messages';
import { CertificateList, CertificateListBody } from './CertificateList';
import { useCertificateList } from './useCertificates';

function ListBody() {
  const { i18n, t } = useLingui();
  const list = useCertificateList('all');
  const [loadingMore, setLoadingMore] = useState(false);
  async function showMore() {
    setLoadingMore(true);
    const loaded = await list.loadMore();
    setLoadingMore(false);
    if (!loaded) notify.error(() => i18n._(OPERATION_FAILED));
  }
  return (
    <CertificateListBody
      list={list}
      offlineText={<Trans>Les certificats émis s’affichent une fois la tablette connectée.</Trans>}
      emptyText={
        <Trans>
          Aucun certificat émis. À la demande du propriétaire, émettez-en un depuis les relevés de son véhicule.
        </Trans>
      }
    >
      {(items, mayHaveMore) => (
        <Stack gap="2" align="stretch">
          <CertificateList items={items} showVehicle onRevoked={list.put} label={t`Certificats kilométriques émis`} />
          {mayHaveMore && (
            <Button alignSelf="start" variant="outline" size="lg" loading={loadingMore} onClick={() => void showMore()}>
              <Trans>Afficher plus</Trans>
            </Button>
          )}
        </Stack>
      )}
    </CertificateListBody>
  );
}

export default function IssuedCertificates() {
  return (
    <Stack as="section" gap="2" aria-labelledby="issued-certificates-title" mt="10">
      <Heading as="h2" size="md" id="issued-certificates-title">
        <Trans>Certificats kilométriques émis</Trans>
      </Heading>
      <ListBody />
    </Stack>
  );
}
