import { type BatchEnvelope, EventQueue, MAX_BATCH_BYTES, MAX_EVENTS_PER_BATCH, MAX_TEXT_LENGTH, type SessionEvent, clip } from './event-queue';

const envelope: BatchEnvelope = { timestamp: 1763800000000, deviceId: 'a'.repeat(32), sessionId: 'b'.repeat(32) };
const event = (index: number, url = `https://shop.example/page/${index}`): SessionEvent => ({ type: 'pageview', time: 1763800000000 + index, page: { url } });

function queueOf(count: number, make = event): EventQueue {
  const queue = new EventQueue();
  for (let index = 0; index < count; index += 1) queue.push(make(index));
  return queue;
}

describe(EventQueue.name, () => {
  it('sends the envelope then the events, in the order tracked', () => {
    const batch = queueOf(3).take(envelope)!;

    expect(JSON.parse(batch.body)).toEqual({ ...envelope, events: [event(0), event(1), event(2)] });
    expect(Object.keys(JSON.parse(batch.body))).toEqual(['timestamp', 'deviceId', 'sessionId', 'events']);
  });

  it('puts at most 100 events in a batch, the rest in the next', () => {
    const queue = queueOf(MAX_EVENTS_PER_BATCH + 5);

    expect(queue.take(envelope)!.events).toHaveLength(MAX_EVENTS_PER_BATCH);
    expect(queue.take(envelope)!.events.map((sent) => sent.time)).toEqual([100, 101, 102, 103, 104].map((index) => event(index).time));
    expect(queue.take(envelope)).toBeUndefined();
  });

  it('keeps each body within 32 KiB, counted in UTF-8 bytes, and fills it', () => {
    // Three bytes a character in UTF-8: 60 such events are far over 32 KiB.
    const queue = queueOf(60, (index) => event(index, `https://shop.example/${'€'.repeat(MAX_TEXT_LENGTH - 30)}`));
    const sizes: number[] = [];
    let sent = 0;
    for (let batch = queue.take(envelope); batch; batch = queue.take(envelope)) {
      sizes.push(new TextEncoder().encode(batch.body).length);
      sent += batch.events.length;
    }

    expect(sent).toBe(60);
    expect(sizes.length).toBeGreaterThan(5);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(MAX_BATCH_BYTES);
    expect(sizes[0]).toBeGreaterThan(MAX_BATCH_BYTES - 3 * 1024);
  });

  it('puts a failed batch back in front of what was tracked since', () => {
    const queue = queueOf(2);
    const failed = queue.take(envelope)!;
    queue.push(event(9));
    queue.requeue(failed.events);

    expect(queue.take(envelope)!.events).toEqual([event(0), event(1), event(9)]);
  });

  it('drops the oldest events beyond its capacity', () => {
    const queue = new EventQueue(3);
    for (let index = 0; index < 5; index += 1) queue.push(event(index));

    expect(queue.take(envelope)!.events).toEqual([event(2), event(3), event(4)]);
  });

  it('clips long texts', () => {
    expect(clip('x'.repeat(5000))).toHaveLength(MAX_TEXT_LENGTH);
    expect(clip('short')).toBe('short');
  });
});
