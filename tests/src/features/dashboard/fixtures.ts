/** Plain data the dashboard's tests share, free of the DOM and the app: pure tests import it directly. */
import type { Vehicle } from '../../../../contract';

export const clio: Vehicle = {
  kode_id: 'KODE000001',
  vin: 'VF1RJA00000000001',
  brand: 'Renault',
  name: 'Clio',
  year: 2019,
  last_odometer: null,
  last_odometer_at: null,
};
