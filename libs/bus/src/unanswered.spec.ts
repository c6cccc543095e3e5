import { consumerGroupName, replyMarginMs, responderOf } from './unanswered';

describe(responderOf.name, () => {
  it('names the service of a request topic, and falls back to the topic', () => {
    expect(responderOf('ringfence.rpc.ingestion.read-entity-documents.v1')).toBe('ingestion');
    expect(responderOf('ringfence.rpc.scoring.customer-checkpoint.v1')).toBe('scoring');
    expect(responderOf('some.other.topic')).toBe('some.other.topic');
  });

  it('names a consumer group as such', () => {
    expect(consumerGroupName('scoring-velocity')).toBe('the consumer group scoring-velocity');
  });
});

describe(replyMarginMs.name, () => {
  it('keeps a fifth of the time left for the reply, at least 50 ms', () => {
    expect(replyMarginMs(500)).toBe(100);
    expect(replyMarginMs(1_500)).toBe(300);
    expect(replyMarginMs(100)).toBe(50);
  });
});
