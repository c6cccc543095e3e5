import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { type ImportProgress, type ImportSummary, importCorpusFiles, loadCredentialsKey, storeDirOf } from '@ringfence/credentials';
import { progressBar } from './traffic-files';

export interface CredentialsImportOptions {
  dataDir: string;
  /** CREDENTIALS_KEY; unset: DATA_DIR/credentials-key, as the server reads it. */
  key?: string;
  threads?: number;
  /** After the swap: tells the server to read the new generation now (the admin reload route). */
  reload?: () => Promise<unknown>;
}

export interface CredentialsImportResult extends ImportSummary {
  /** Whether the server switched to the new generation before this command returned. */
  reloaded: boolean;
}

/**
 * `ringfence credentials import FILE…`: writes the store's next generation beside the one the
 * server reads (DATA_DIR/credentials, or the lookup service's volume), swaps it in atomically,
 * then asks the server to reload. Checks stay online throughout and never see half an import;
 * killed at any point, the same command resumes (docs/credentials.md). It runs where the store
 * is (the server's host, or `kubectl exec` into the lookup pod), not over HTTPS: a corpus of
 * billions of pairs does not go through JSON batches.
 */
export async function runCredentialsImport(files: string[], options: CredentialsImportOptions): Promise<CredentialsImportResult> {
  for (const file of files) if (!existsSync(file)) throw new Error(`cannot read ${file}: no such file`);
  const key = loadCredentialsKey(options.dataDir, options.key);
  const bar = progressBar('ringfence: {phase} |{bar}| {percentage}% {value}/{total} {unit} | {lines} lines | ETA {eta_formatted}');
  let phase: ImportProgress['phase'] | undefined;
  const summary = await importCorpusFiles(storeDirOf(options.dataDir), key, files, {
    threads: options.threads ?? availableParallelism(),
    onProgress: (progress) => {
      if (progress.phase !== phase) {
        if (phase) bar.stop();
        phase = progress.phase;
        const total = progress.phase === 'reading' ? Math.max(1, progress.bytesTotal) : 1024;
        bar.start(total, 0, { phase: progress.phase, unit: progress.phase === 'reading' ? 'bytes' : 'partitions', lines: progress.lines });
      }
      bar.update(progress.phase === 'reading' ? progress.bytesRead : progress.partitionsMerged, { lines: progress.lines.toLocaleString('en-GB') });
    },
  }).finally(() => {
    if (phase) bar.stop();
  });
  let reloaded = false;
  if (options.reload) {
    try {
      await options.reload();
      reloaded = true;
    } catch (error: unknown) {
      process.stderr.write(
        `ringfence: the import is in the store, but the server could not be told (${error instanceof Error ? error.message : String(error)}); it picks the new generation up within a second by itself\n`,
      );
    }
  }
  return { ...summary, reloaded };
}
