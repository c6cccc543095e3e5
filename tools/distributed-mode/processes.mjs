import { spawn } from 'node:child_process';
import { createWriteStream, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * One process the script started: its output goes to a log file (mode 0600: the gateway prints
 * the bootstrap key there once) and is kept in memory to wait for lines. Each runs in a process
 * group of its own, so a Ctrl-C in the terminal reaches the script only, which then stops every
 * process once, in order. Its process id is in `pidFile` while it runs (to stop one app by hand
 * and watch what the others answer).
 */
export function launch(name, command, args, { env, cwd, logFile, pidFile }) {
  const log = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  if (child.pid !== undefined) writeFileSync(pidFile, `${child.pid}\n`);
  const lines = [];
  const waiters = new Set();
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let pending = '';
  const onData = (chunk) => {
    log.write(chunk);
    pending += chunk.toString('utf8');
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) {
      lines.push(line);
      for (const waiter of [...waiters]) waiter(line);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  void exited.then(() => {
    log.end();
    rmSync(pidFile, { force: true });
  });
  return {
    name,
    child,
    lines,
    exited,
    /** The first line matching `pattern` (seen already or to come); rejects at the timeout or the exit. */
    waitForLine(pattern, timeoutMs) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const done = (outcome) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          outcome();
        };
        const waiter = (line) => pattern.test(line) && done(() => resolve(line));
        const timer = setTimeout(() => done(() => reject(new Error(`${name} printed nothing matching ${pattern} within ${timeoutMs / 1000} s (log: ${logFile})`))), timeoutMs);
        waiters.add(waiter);
        void exited.then(({ code, signal }) => done(() => reject(new Error(`${name} exited (${signal ?? `status ${code}`}) while starting; the end of ${logFile}:\n${lines.slice(-15).join('\n')}`))));
      });
    },
    /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. */
    async stop(graceMs = 20_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        const outcome = await exited;
        clearTimeout(killer);
        return outcome;
      }
      return exited;
    },
  };
}

/** GET `url` once: its status, or 0 when nothing answered. */
export function probe(url, ca) {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const request = send(url, { ca, agent: false, timeout: 2_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
    request.end();
  });
}

/** Polls `url` until it answers 200; rejects when `service` exits or at the timeout. */
export async function waitUntilReady(service, url, { ca, timeoutMs }) {
  const deadline = Date.now() + timeoutMs;
  let stopped = false;
  void service.exited.then(() => (stopped = true));
  let status = 0;
  while (Date.now() < deadline && !stopped) {
    status = await probe(url, typeof ca === 'function' ? ca() : ca);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${service.name} was not ready at ${url} (last answer: ${status || 'none'})${stopped ? ': it exited' : ` within ${timeoutMs / 1000} s`}`);
}
