/** Tab 3, Advices (docs/PRODUCT.md#advices-tab): five numbered steps and three tips, in French prose. */
import { Box, Heading, List, Stack, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { useHistoryCatalog } from '../catalog';
import { CORRECTION_WINDOW_MS } from '../../../../contract/rules';

/** How long a sent entry can be corrected, in days (docs/PRODUCT.md#corrections). */
const CORRECTION_WINDOW_DAYS = CORRECTION_WINDOW_MS / (24 * 60 * 60 * 1000);

export function AdvicesPanel() {
  useHistoryCatalog();
  return (
    <Stack gap="6" bg="bg" borderWidth="1px" rounded="l3" p={{ base: '4', md: '6' }}>
      <Box>
        <Heading as="h2" size="md" mb="3">
          <Trans>Comment enregistrer un kilométrage</Trans>
        </Heading>
        <List.Root as="ol" listStyleType="decimal" ps="6" gap="3">
          <List.Item>
            <Trans>Saisissez l'identifiant du véhicule (KODE ID, 10 caractères) puis appuyez sur « Rechercher ».</Trans>
          </List.Item>
          <List.Item>
            <Trans>
              Les informations du véhicule (VIN, modèle, marque et année) sont récupérées et affichées automatiquement.
            </Trans>
          </List.Item>
          <List.Item>
            <Trans>Choisissez le type d'intervention : réparation, relevé de kilométrage, vidange, etc.</Trans>
          </List.Item>
          <List.Item>
            <Trans>Saisissez le kilométrage actuel du compteur et vérifiez-le attentivement.</Trans>
          </List.Item>
          <List.Item>
            <Trans>
              Cochez la case de confirmation puis appuyez sur « Insérer » : le relevé envoyé est permanent, vérifiez-le
              avant. Une erreur se corrige dans les {CORRECTION_WINDOW_DAYS} jours depuis l'historique (« Corriger ») :
              la correction s'ajoute au relevé d'origine, qui reste visible.
            </Trans>
          </List.Item>
        </List.Root>
      </Box>
      <Box>
        <Heading as="h2" size="md" mb="3">
          <Trans>Conseils</Trans>
        </Heading>
        <List.Root ps="6" gap="3">
          <List.Item>
            <Trans>Vérifiez que le VIN affiché correspond bien à celui inscrit sur le véhicule.</Trans>
          </List.Item>
          <List.Item>
            <Trans>Relisez toutes les informations avant de valider la saisie.</Trans>
          </List.Item>
          <List.Item>
            <Trans>Ne partagez pas l'accès à votre compte avec des personnes non fiables.</Trans>
          </List.Item>
        </List.Root>
      </Box>
      <Text color="fg.muted" fontSize="sm">
        <Trans>
          Sans connexion, vos saisies sont gardées sur la tablette et envoyées automatiquement dès le retour du réseau.
        </Trans>
      </Text>
    </Stack>
  );
}
