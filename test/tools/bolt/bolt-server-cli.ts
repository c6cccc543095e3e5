import { startBoltServer } from './bolt-server';

/**
 * By hand: `test/tools/bolt/bolt-server.sh [--host H] [--port P]`. A stand-in for Neo4j where
 * there is none (docs/distributed-mode.md): prints its bolt:// URL as the first line on stdout,
 * then serves until SIGTERM or SIGINT. Everything is in memory and gone when it stops.
 */
export function parseBoltArguments(argv: readonly string[]): { host: string; port: number } {
  const options = { host: '127.0.0.1', port: 0 };
  for (let index = 0; index < argv.length; index += 1) {
    const [flag, value] = [argv[index], argv[index + 1]];
    if (flag === '--host' && value !== undefined) options.host = value;
    else if (flag === '--port' && value !== undefined && /^\d{1,5}$/.test(value)) options.port = Number(value);
    else throw new Error(`usage: bolt-server.sh [--host ADDRESS] [--port PORT]; not understood: ${flag}${value === undefined ? '' : ` ${value}`}`);
    index += 1;
  }
  return options;
}

async function main(argv: readonly string[]): Promise<void> {
  const server = await startBoltServer(parseBoltArguments(argv));
  process.stdout.write(`${server.url}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
