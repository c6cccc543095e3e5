import { ALL_TOPICS } from '@ringfence/contracts';
import { launcherArguments } from './kafka-mock';

describe(launcherArguments.name, () => {
  it('puts every option before the topics, whatever the order they came in', () => {
    const documented = launcherArguments(['--partitions', '3', '--until-signal', '--all-topics']);
    const reversed = launcherArguments(['--all-topics', '--partitions', '3', '--until-signal']);
    expect(documented).toEqual(['--partitions', '3', '--until-signal', ...ALL_TOPICS]);
    expect(reversed).toEqual(documented);
  });

  it('keeps named topics after the options and refuses an unknown option', () => {
    expect(launcherArguments(['topic-a', '--brokers', '2', 'topic-b'])).toEqual(['--brokers', '2', 'topic-a', 'topic-b']);
    expect(() => launcherArguments(['--partition', '3'])).toThrow(/unknown option --partition/);
  });
});
