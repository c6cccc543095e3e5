import type { ClientEventsReceivedEvent } from '@ringfence/contracts';
import { DEVICE_LIMITS, OTHER_EVENT_TYPE, applyClientEvents, applyDeviceSighting, deviceMessageOf } from './device-record';
import { deviceSightingOf } from './device-sighting';
import { summariseDevice } from './device-summary';

let eventSequence = 0;
const applied = (acceptedAt = 1_000) => ({ eventId: `evt-${(eventSequence += 1)}`, acceptedAt });

function batch(overrides: Partial<ClientEventsReceivedEvent> = {}): ClientEventsReceivedEvent {
  return {
    timestamp: 1_763_800_000_000,
    deviceId: 'dev-1',
    sessionId: 'ses-1',
    events: [
      { type: 'pageview', time: 1_763_800_000_000 },
      { type: 'paste', time: 1_763_800_000_100 },
    ],
    ...overrides,
  };
}

describe(applyClientEvents.name, () => {
  it('counts the events by type on the device and its session, and keeps what the SDK reported', () => {
    const device = { userAgent: 'HeadlessChrome', webdriver: true, timeZone: 'Asia/Manila', fingerprint: 'fp-1', screen: { width: 800, height: 600 } };
    const record = applyClientEvents(null, batch({ device, ipAddress: '203.0.113.7', customerId: 'cus-1' }), applied(1_000));

    expect(record).toMatchObject({
      deviceId: 'dev-1',
      firstSeen: 1_000,
      lastSeen: 1_000,
      reported: device,
      fingerprints: ['fp-1'],
      eventCounts: { pageview: 1, paste: 1 },
      sessions: [{ sessionId: 'ses-1', firstSeen: 1_000, lastSeen: 1_000, eventCounts: { pageview: 1, paste: 1 } }],
      ipAddresses: [{ ipAddress: '203.0.113.7', firstSeen: 1_000, lastSeen: 1_000 }],
      customers: [{ customerId: 'cus-1', firstSeen: 1_000, lastSeen: 1_000 }],
    });
  });

  it('adds up later batches, newest session last, and widens the times seen', () => {
    const first = applyClientEvents(null, batch({ ipAddress: '203.0.113.7' }), applied(1_000));
    const second = applyClientEvents(first, batch({ sessionId: 'ses-2', events: [{ type: 'checkout', time: 1 }], ipAddress: '198.51.100.1' }), applied(2_000));
    const third = applyClientEvents(second, batch({ events: [{ type: 'click', time: 1 }], ipAddress: '203.0.113.7' }), applied(3_000));

    expect(third?.eventCounts).toEqual({ pageview: 1, paste: 1, checkout: 1, click: 1 });
    expect(third?.sessions.map((session) => [session.sessionId, session.firstSeen, session.lastSeen])).toEqual([
      ['ses-2', 2_000, 2_000],
      ['ses-1', 1_000, 3_000],
    ]);
    expect(third?.ipAddresses.map((seen) => [seen.ipAddress, seen.firstSeen, seen.lastSeen])).toEqual([
      ['198.51.100.1', 2_000, 2_000],
      ['203.0.113.7', 1_000, 3_000],
    ]);
    expect([third?.firstSeen, third?.lastSeen]).toEqual([1_000, 3_000]);
  });

  it('counts pastes into card fields (by the kind the SDK names: cc-number, cc-csc, cc-exp…) on the device and its session', () => {
    const pastes = [
      { type: 'paste', time: 1, element: { name: 'card', kind: 'cc-number' } },
      { type: 'paste', time: 2, element: { name: 'cvc', kind: 'CC-CSC' } },
      { type: 'paste', time: 3, element: { name: 'email', kind: 'email' } },
      { type: 'click', time: 4, element: { name: 'card', kind: 'cc-number' } },
    ];
    const first = applyClientEvents(null, batch({ events: pastes }), applied(1_000));
    const second = applyClientEvents(first, batch({ sessionId: 'ses-2' }), applied(2_000));

    expect(second?.cardFieldPastes).toBe(2);
    expect(second?.sessions.map((session) => [session.sessionId, session.cardFieldPastes])).toEqual([
      ['ses-1', 2],
      ['ses-2', undefined],
    ]);
    expect([second?.sessions[0].firstEventTime, second?.sessions[0].lastEventTime]).toEqual([1, 4]);
  });

  it('answers null for a batch it applied already (a redelivery), so nothing is counted twice', () => {
    const event = applied();
    const record = applyClientEvents(null, batch(), event);

    expect(applyClientEvents(record, batch(), event)).toBeNull();
  });

  it('does not change the record it was given (a compare-and-set may call it again)', () => {
    const record = applyClientEvents(null, batch(), applied());
    const before = JSON.stringify(record);
    applyClientEvents(record, batch(), applied());

    expect(JSON.stringify(record)).toBe(before);
  });

  it('keeps every list bounded: the newest sessions, and custom types past the bound counted as other', () => {
    let record = applyClientEvents(null, batch(), applied());
    for (let session = 0; session < DEVICE_LIMITS.sessions + 5; session += 1) record = applyClientEvents(record, batch({ sessionId: `s-${session}` }), applied());
    const manyTypes = Array.from({ length: DEVICE_LIMITS.eventTypes + 3 }, (_, index) => ({ type: `custom-${index}`, time: 1 }));
    record = applyClientEvents(record, batch({ sessionId: 'wide', events: manyTypes }), applied());

    expect(record?.sessions).toHaveLength(DEVICE_LIMITS.sessions);
    expect(record?.sessions.at(-1)?.sessionId).toBe('wide');
    expect(Object.keys(record?.sessions.at(-1)?.eventCounts ?? {})).toHaveLength(DEVICE_LIMITS.eventTypes + 1);
    expect(record?.sessions.at(-1)?.eventCounts[OTHER_EVENT_TYPE]).toBe(3);
    expect(record?.appliedEventIds).toHaveLength(DEVICE_LIMITS.sessions + 7);
    for (let call = 0; call < DEVICE_LIMITS.appliedEventIds; call += 1) record = applyClientEvents(record, batch(), applied());
    expect(record?.appliedEventIds).toHaveLength(DEVICE_LIMITS.appliedEventIds);
  });
});

describe(applyDeviceSighting.name, () => {
  it("adds a checkpoint's customer and cards to the device, one card per instrument", () => {
    const wire = { timestamp: 1, customer: { customerId: 'cus-9' }, device: { deviceId: 'dev-1' }, paymentMethod: { methodType: 'card', instrumentId: 'ins-1', iin: '411111', lastFour: '1111' } };
    const sighting = deviceSightingOf(wire);
    const once = applyDeviceSighting(null, sighting!, applied(5_000));
    const twice = applyDeviceSighting(once, sighting!, applied(6_000));

    expect(sighting).toEqual({ deviceId: 'dev-1', customerId: 'cus-9', cards: [{ instrumentId: 'ins-1', cardBin: '411111', cardLastFour: '1111' }] });
    expect(twice?.customers).toEqual([{ customerId: 'cus-9', firstSeen: 5_000, lastSeen: 6_000 }]);
    expect(twice?.cards).toEqual([{ instrumentId: 'ins-1', cardBin: '411111', cardLastFour: '1111', firstSeen: 5_000, lastSeen: 6_000 }]);
  });

  it('finds the device of a bare deviceId, and none when the payload names no device', () => {
    expect(deviceSightingOf({ customerId: 'cus-1', deviceId: 'dev-2' })).toEqual({ deviceId: 'dev-2', customerId: 'cus-1', cards: [] });
    expect(deviceSightingOf({ customer: { customerId: 'cus-1' } })).toBeNull();
  });
});

describe(summariseDevice.name, () => {
  it('counts sessions, events, customers and cards, and reads the reported facts', () => {
    const record = applyClientEvents(null, batch({ device: { webdriver: true, timeZone: 'UTC', fingerprint: 'fp' }, customerId: 'cus-1' }), applied(1_000));
    const summary = summariseDevice(deviceMessageOf(record!));

    expect(summary).toMatchObject({ sessionCount: 1, eventCount: 2, distinctCustomers: 1, distinctCards: 0, webdriver: true, timeZone: 'UTC', fingerprint: 'fp', latestSession: { sessionId: 'ses-1' } });
    expect(deviceMessageOf(record!)).not.toHaveProperty('appliedEventIds');
  });

  it('names the card-field pastes, and the IP address and customer seen last', () => {
    const first = applyClientEvents(null, batch({ ipAddress: '203.0.113.7', customerId: 'cus-1', events: [{ type: 'paste', time: 1, element: { kind: 'cc-number' } }] }), applied(1_000));
    const second = applyClientEvents(first, batch({ ipAddress: '198.51.100.1', customerId: 'cus-2' }), applied(2_000));

    expect(summariseDevice(deviceMessageOf(second!))).toMatchObject({ cardFieldPastes: 1, lastIpAddress: '198.51.100.1', lastCustomerId: 'cus-2' });
    expect(summariseDevice(deviceMessageOf(applyClientEvents(null, batch(), applied())!))).toMatchObject({ cardFieldPastes: 0, lastIpAddress: null, lastCustomerId: null });
  });
});
