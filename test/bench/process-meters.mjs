// What a server process spends, read from outside it, for the load benchmarks' per-request costs:
// CPU time of the whole process and of its main thread (from /proc), and bytes allocated on its
// V8 heaps (from the GC trace V8 prints with `--trace-gc-nvp`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

// /proc counts CPU time in clock ticks; 100 a second on most Linux machines, but not all.
const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** utime + stime of a /proc stat file, in seconds. */
function cpuSecondsOf(statFile) {
  const stat = readFileSync(statFile, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: the fields that follow start
  // after its last closing parenthesis. utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** CPU seconds a process has used, every thread (user + system). */
export const processCpuSeconds = (pid) => cpuSecondsOf(`/proc/${pid}/stat`);

/**
 * CPU seconds the process's main thread has used (user + system). On Linux the main thread's
 * task id is the process id; Node runs JavaScript, the HTTP parsing and the event loop there,
 * while its worker threads (an embedded database, libuv's pool, V8's GC helpers) are other tasks.
 */
export const mainThreadCpuSeconds = (pid) => cpuSecondsOf(`/proc/${pid}/task/${pid}/stat`);

/** Node's option that makes V8 print one line per garbage collection, with the bytes allocated since the last. */
export const GC_TRACE_OPTION = '--trace-gc-nvp';

// `[pid:0xisolate]    1234 ms: pause=2.5 … gc=s … allocated=123456 …`: one line per collection, per
// isolate (the main thread's and each worker thread's). `pause` is how long the collection stopped
// the isolate's thread, in milliseconds; `allocated` is what the isolate's JavaScript allocated
// since its previous collection.
const GC_LINE = /^\[\d+:(0x[0-9a-f]+)\].* pause=([\d.]+) .* allocated=(\d+)/;

/**
 * Sums the `allocated=` and `pause=` fields of the GC trace on a process's stdout, per isolate, as the lines
 * arrive; every other line of that stream is dropped (the bench reads no log from stdout). The
 * main thread's isolate is the first to collect: Node loads the application on it before any
 * worker thread exists. `read()` gives the running totals; the difference of two reads is what
 * was allocated in between, give or take the allocations since each isolate's last collection
 * (at most a young generation, a few MiB, against the GiB of a benchmark round) and the lines
 * still in the process's stdout buffer.
 */
export function heapAllocationMeter(stdout) {
  const totals = new Map();
  let mainIsolate;
  let mainThreadPauseMs = 0;
  createInterface({ input: stdout, crlfDelay: Infinity }).on('line', (line) => {
    const match = GC_LINE.exec(line);
    if (!match) return;
    const [, isolate, pause, allocated] = match;
    mainIsolate ??= isolate;
    totals.set(isolate, (totals.get(isolate) ?? 0) + Number(allocated));
    if (isolate === mainIsolate) mainThreadPauseMs += Number(pause);
  });
  return {
    read() {
      let all = 0;
      for (const bytes of totals.values()) all += bytes;
      return { mainThread: totals.get(mainIsolate) ?? 0, allThreads: all, isolates: totals.size, mainThreadPauseMs };
    },
  };
}

/** A server's counters at one moment, to subtract from a later one. */
export function meterReading(server) {
  const { pid } = server.child;
  return {
    processCpu: processCpuSeconds(pid),
    mainThreadCpu: mainThreadCpuSeconds(pid),
    heap: server.allocations?.read(),
  };
}

/** Per answered request, what the server spent between two readings. */
export function costPerRequest(before, after, answered) {
  const requests = Math.max(1, answered);
  return {
    cpuMsPerRequest: ((after.processCpu - before.processCpu) * 1000) / requests,
    mainThreadCpuMsPerRequest: ((after.mainThreadCpu - before.mainThreadCpu) * 1000) / requests,
    ...(after.heap
      ? {
          heapBytesPerRequest: (after.heap.mainThread - before.heap.mainThread) / requests,
          allHeapsBytesPerRequest: (after.heap.allThreads - before.heap.allThreads) / requests,
          gcPauseMsPerRequest: (after.heap.mainThreadPauseMs - before.heap.mainThreadPauseMs) / requests,
        }
      : {}),
  };
}
