// Loaded into the profiled server by profile.bench.mjs (PROFILE_HEAP=1) with `node --import`: V8's
// sampling heap profiler over the load's window only, started by the first SIGUSR2 and stopped by
// the second, which writes the profile to HEAP_PROFILE_FILE.
//
// Not `node --heap-prof`: it keeps only the samples of objects still alive at exit, and samples
// from the start, so start-up's allocations would be counted and the load's garbage (what issue 35
// measures) would not. The inspector's HeapProfiler.startSampling can keep the samples of objects
// the young and old generation collections freed: an unbiased estimate of every byte allocated.
import { Session } from 'node:inspector';
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.HEAP_PROFILE_FILE;
const samplingInterval = Number(process.env.HEAP_PROFILE_INTERVAL ?? 16384);
if (!file) throw new Error('heap-sampling.preload.mjs needs HEAP_PROFILE_FILE');

const session = new Session();
session.connect();
let sampling = false;

// A main-thread session answers synchronously: the profile is written before the handler returns.
process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.startSampling', { samplingInterval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }, (error) => {
      if (error) console.error(`heap sampling did not start: ${error.message}`);
    });
    return;
  }
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) return console.error(`heap sampling did not stop: ${error.message}`);
    // Written aside and renamed: the bench waits for the file, and must not read half of it.
    writeFileSync(`${file}.partial`, JSON.stringify(result.profile));
    renameSync(`${file}.partial`, file);
  });
});
