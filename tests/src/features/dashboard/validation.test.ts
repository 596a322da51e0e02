/**
 * A repair entry's vehicle details (src/features/dashboard/validation.ts): the wire's vehicle names the
 * model `name`, the entry `model`; the details carry it across under the entry's name.
 */
import { describe, expect, it } from 'vitest';
import type { Vehicle } from '../../../../contract';
import { entryVehicleDetails, toRepairInput } from '../../../../src/features/dashboard/validation';

const VEHICLE: Vehicle = {
  kode_id: 'KODE000001',
  vin: 'VF1LM1B0H36666666',
  brand: 'Renault',
  name: 'Clio 5',
  year: 2021,
  last_odometer: null,
  last_odometer_at: null,
};

describe('entryVehicleDetails', () => {
  it('carries the wire vehicle name into the entry as its model, with the other details', () => {
    const input = toRepairInput(
      { kode_id: 'KODE000001', odometer: '45200', repair_type_id: 'oil_change', consented: true },
      entryVehicleDetails(VEHICLE),
    );
    expect(input).toMatchObject({ vin: 'VF1LM1B0H36666666', brand: 'Renault', model: 'Clio 5', year: 2021 });
  });
});
