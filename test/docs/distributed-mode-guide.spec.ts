import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/**
 * docs/distributed-mode.md shows by hand what `npm run distributed` does
 * (tools/distributed-mode), and the e2e tier runs the script
 * (test/e2e/distributed-script.int-spec.ts): the commands of the two must be the same, so the
 * guide cannot drift from what works.
 */
describe('the distributed-mode guide and its script', () => {
  const guide = read('docs/distributed-mode.md');
  const script = read('tools/distributed-mode/ringfence-distributed.mjs');

  it('starts the Kafka stand-in with the same command, options before --all-topics', () => {
    const byHand = /test\/tools\/kafka-mock\/kafka-mock\.sh ([^>\n]+?) >/.exec(guide)?.[1]?.split(' ');
    const scripted = /kafka-mock\.sh'\), \[([^\]]+)\]/.exec(script)?.[1]?.split(', ').map((arg) => arg.replaceAll("'", ''));
    expect(byHand).toEqual(['--partitions', '3', '--until-signal', '--all-topics']);
    expect(scripted).toEqual(byHand);
    expect(read('test/tools/kafka-mock/README.md')).toContain('kafka-mock.sh --partitions 3 --until-signal --all-topics &');
  });

  it('gives the apps the same low KAFKA_CONSUMER_MAX_WAIT_MS on the stand-in as the project\'s tests', () => {
    expect(guide).toContain('export KAFKA_CONSUMER_MAX_WAIT_MS=5');
    expect(script).toMatch(/KAFKA_CONSUMER_MAX_WAIT_MS = process\.env\.KAFKA_CONSUMER_MAX_WAIT_MS \?\? '5'/);
    expect(read('test/e2e/distributed-kafka.int-spec.ts')).toContain("KAFKA_CONSUMER_MAX_WAIT_MS: '5'");
  });

  it('starts the Bolt stand-in for Neo4j with the command the guide gives', () => {
    expect(guide).toContain('test/tools/bolt/bolt-server.sh --port 7687');
    expect(script).toContain("'test/tools/bolt/bolt-server.sh'");
  });

  it('creates a database per app, named as the script names them, without sudo', () => {
    expect(guide).toContain('for app in gateway ingestion graph scoring lookup labelling; do');
    expect(guide).toContain('CREATE DATABASE ringfence_$app OWNER ringfence');
    expect(read('tools/distributed-mode/databases.mjs')).toContain('CREATE DATABASE ${quoted(name)} OWNER ${APP_ROLE.name}');
    expect(guide.match(/sudo -u postgres|sudo psql/g)).toBeNull();
  });

  it('reads the first key where the gateway writes it, in both', () => {
    expect(guide).toContain('KEY=$(cat data/bootstrap-key)');
    expect(read('tools/distributed-mode/settings.mjs')).toContain("bootstrapKey: join(stateDir, 'gateway', 'bootstrap-key')");
  });
});
