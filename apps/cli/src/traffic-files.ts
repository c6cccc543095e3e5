import { closeSync, createReadStream, createWriteStream, existsSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { Presets, SingleBar } from 'cli-progress';
import { type TrafficLine, parseTrafficLine } from './traffic-sender';

/** True when the file starts with the gzip magic bytes (whatever its name). */
export function isGzip(file: string): boolean {
  const handle = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(handle, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(handle);
  }
}

/**
 * The lines of a traffic file (JSON Lines, plain or gzip), in file order, numbered from 1;
 * `onBytes` reports how many bytes of the file were read so far (for a progress bar).
 */
export async function* readTrafficFile(file: string, onBytes?: (bytesRead: number) => void): AsyncGenerator<TrafficLine> {
  const raw = createReadStream(file);
  let bytesRead = 0;
  raw.on('data', (chunk) => {
    bytesRead += chunk.length;
    onBytes?.(bytesRead);
  });
  const input = isGzip(file) ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (error) => input.destroy(error));
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  try {
    for await (const text of reader) {
      line += 1;
      const parsed = parseTrafficLine(line, text);
      if (parsed) yield parsed;
    }
  } finally {
    reader.close();
    raw.destroy();
  }
}

/** A JSON Lines sink: standard output for `-`, gzip when the name ends in `.gz`. */
export class JsonLinesWriter {
  private readonly sink: Writable;
  private readonly file?: Writable;

  constructor(target: string) {
    if (target === '-') {
      this.sink = process.stdout;
    } else {
      this.file = createWriteStream(target);
      if (target.endsWith('.gz')) {
        const gzip = createGzip();
        gzip.pipe(this.file);
        this.sink = gzip;
      } else {
        this.sink = this.file;
      }
    }
  }

  /** Writes one value as a line, waiting when the sink asks for a pause. */
  async write(value: unknown): Promise<void> {
    if (!this.sink.write(`${JSON.stringify(value)}\n`)) await once(this.sink, 'drain');
  }

  async close(): Promise<void> {
    if (this.sink === process.stdout) return;
    const finished = once(this.file ?? this.sink, 'finish');
    this.sink.end();
    await finished;
  }
}

export interface ImportState {
  version: 1;
  /** Per input file (absolute path): every line up to this one was answered (2xx or 4xx). */
  files: Record<string, { completedThroughLine: number; done: boolean; updatedAt: string }>;
}

/** The resume point of imports, kept in a small JSON file written atomically (temporary file, then rename). */
export class ImportStateFile {
  private state: ImportState;

  constructor(readonly path: string) {
    this.state = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ImportState) : { version: 1, files: {} };
    if (this.state.version !== 1 || typeof this.state.files !== 'object') throw new Error(`${path} is not an import state file`);
  }

  static defaultPathFor(file: string): string {
    return `${file}.import-state.json`;
  }

  of(file: string) {
    return this.state.files[resolve(file)] ?? { completedThroughLine: 0, done: false, updatedAt: '' };
  }

  record(file: string, completedThroughLine: number, done: boolean): void {
    this.state.files[resolve(file)] = { completedThroughLine, done, updatedAt: new Date().toISOString() };
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.state, null, 2)}\n`);
    renameSync(temporary, this.path);
  }
}

export function fileSize(file: string): number {
  return statSync(file).size;
}

/**
 * A progress bar on standard error (cli-progress); when standard error is not a terminal, a
 * plain line every few seconds instead.
 */
export function progressBar(format: string): SingleBar {
  return new SingleBar(
    {
      format,
      stream: process.stderr,
      hideCursor: true,
      noTTYOutput: !process.stderr.isTTY,
      notTTYSchedule: 5000,
      etaBuffer: 50,
      formatValue: (value, _options, type) => (type === 'value' || type === 'total' ? value.toLocaleString('en-GB') : String(value)),
    },
    Presets.shades_classic,
  );
}
