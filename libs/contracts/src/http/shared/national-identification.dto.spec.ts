import { plainToInstance } from 'class-transformer';
import { ConnectLinkedEvent } from '../../messages/ingest-events';
import { ConnectRequestDto } from '../connect/connect.request.dto';
import { toWireJson } from '../../messages/message-envelope';
import type { NationalIdentificationDto } from './national-identification.dto';

describe('NationalIdentificationDto', () => {
  const wire = { timestamp: 1_763_800_000_000, customerId: 'cus-1', nationalIdentifications: [{ passport: { idNumber: 'P1', jurisdictionCountry: 'GBR' } }] };

  it('survives a second transformation, as an in-process event is validated again by its consumer', () => {
    const accepted = plainToInstance(ConnectRequestDto, wire);
    const consumed = plainToInstance(ConnectLinkedEvent, accepted);
    expect(toWireJson(consumed)).toEqual(wire);
    // class-transformer's reading (the strict validation's reference) makes each item a Map.
    expect((consumed.nationalIdentifications?.[0] as unknown as NationalIdentificationDto).get('passport')).toMatchObject({ idNumber: 'P1' });
  });
});
