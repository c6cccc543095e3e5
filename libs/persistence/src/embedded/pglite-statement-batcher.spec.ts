import { serialize } from 'pg-protocol';
import type { BackendMessage } from 'pg-protocol/dist/messages';
import { PGliteStatementBatcher, type ProtocolExecutor } from './pglite-statement-batcher';

function recordingExecutor() {
  const batches: Buffer[] = [];
  const executor: ProtocolExecutor = {
    waitReady: Promise.resolve(),
    async execProtocolStream(bytes: Uint8Array) {
      batches.push(Buffer.from(bytes));
      return [{ name: 'readyForQuery', length: 5 } as BackendMessage];
    },
  };
  return { executor, batches };
}

describe(PGliteStatementBatcher.name, () => {
  const statement = [
    serialize.parse({ text: 'SELECT $1::int', types: [] }),
    serialize.bind({ values: ['1'] }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
  ];

  it('holds Parse, Bind, Describe and Execute, and sends them with the Sync in one batch', async () => {
    const { executor, batches } = recordingExecutor();
    const batcher = new PGliteStatementBatcher(executor);
    for (const message of statement) expect(await batcher.execProtocolStream(message)).toEqual([]);
    expect(batches).toHaveLength(0);
    const answer = await batcher.execProtocolStream(serialize.sync());
    expect(answer).toEqual([{ name: 'readyForQuery', length: 5 }]);
    expect(batches).toEqual([Buffer.concat([...statement, serialize.sync()])]);
  });

  it('sends a simple query at once', async () => {
    const { executor, batches } = recordingExecutor();
    await new PGliteStatementBatcher(executor).execProtocolStream(serialize.query('SELECT 1'));
    expect(batches).toEqual([serialize.query('SELECT 1')]);
  });

  it('reads the last message of a buffer that already holds several', async () => {
    const { executor, batches } = recordingExecutor();
    const batcher = new PGliteStatementBatcher(executor);
    await batcher.execProtocolStream(Buffer.concat([...statement, serialize.sync()]));
    expect(batches).toHaveLength(1);
    await batcher.execProtocolStream(Buffer.concat(statement));
    expect(batches).toHaveLength(1);
  });
});
