import { plainToInstance } from 'class-transformer';
import { ConnectLinkedEvent } from '../../messages/ingest-events';
import { ConnectRequestDto } from '../connect/connect.request.dto';
import { toWireJson } from '../../messages/message-envelope';

describe('NationalIdentificationDto', () => {
  const wire = { timestamp: 1_763_800_000_000, customerId: 'cus-1', nationalIdentifications: [{ passport: { idNumber: 'P1', jurisdictionCountry: 'GBR' } }] };

  it('survives a second transformation, as an in-process event is validated again by its consumer', () => {
    const accepted = plainToInstance(ConnectRequestDto, wire);
    const consumed = plainToInstance(ConnectLinkedEvent, accepted);
    expect(toWireJson(consumed)).toEqual(wire);
    expect(consumed.nationalIdentifications?.[0].get('passport')).toMatchObject({ idNumber: 'P1' });
  });
});
