// The report of a sampling heap profile (heap-sampling.preload.mjs) for profile.bench.mjs: bytes
// allocated per answered request, by package, by function and by part of the service.
import { readFileSync } from 'node:fs';
import { frameLocation } from './flame-graph.mjs';

const kb = (bytes) => `${(bytes / 1000).toFixed(1).padStart(7)} KB`;

/** The package (or dist/ lib) of a frame, as the CPU report names it; a frame without a file by its function. */
function packageOf({ url, functionName }) {
  const where = frameLocation(url);
  if (url.includes('node_modules/')) return where.split('/').slice(0, where.startsWith('@') ? 2 : 1).join('/');
  if (url.includes('/dist/')) return where.split('/').slice(0, 4).join('/');
  return where || functionName;
}

/**
 * Bytes per request of a `.heapprofile`'s tree: each node's self size (V8's estimate of the bytes
 * its function allocated) counted for its function (a built-in's for its caller), its package, and the part of the service of
 * the outermost frame on its stack that names one (`parts`: [name, pattern of `function url`]).
 */
export function summariseAllocations(file, requests, parts, top = 30) {
  const { head } = JSON.parse(readFileSync(file, 'utf8'));
  const byPackage = new Map();
  const byFunction = new Map();
  const byPart = new Map();
  const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);
  let total = 0;
  const visit = (node, outerPart, caller) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const part = outerPart ?? parts.find(([, pattern]) => pattern.test(`${functionName} ${url}`))?.[0];
    // A built-in (Array.prototype.join, an iterator's next: no file) allocates for its caller,
    // the code to change: it counts for the caller's package, and is named beside it.
    const builtIn = url === '' && caller !== undefined && !functionName.startsWith('(');
    const location = builtIn ? `${functionName} ← ${caller.location}` : `${functionName || '(anonymous)'} ${frameLocation(url)}:${lineNumber + 1}`;
    const pkg = builtIn ? caller.pkg : packageOf(node.callFrame);
    if (node.selfSize > 0) {
      total += node.selfSize;
      add(byPackage, pkg, node.selfSize);
      add(byFunction, location, node.selfSize);
      add(byPart, part ?? 'other', node.selfSize);
    }
    const callerOfChildren = builtIn || url === '' ? caller : { location, pkg };
    for (const child of node.children) visit(child, part, callerOfChildren);
  };
  visit(head, undefined, undefined);
  if (requests === 0 || total === 0) return 'no allocations sampled during the load';
  const table = (map, rows) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(([name, bytes]) => `  ${kb(bytes / requests)}  ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n');
  return [
    `${(total / 1e6).toFixed(0)} MB sampled over ${requests} requests: ${kb(total / requests).trim()} allocated per request`,
    ` by package (per request, share):\n${table(byPackage, top)}`,
    ` by function:\n${table(byFunction, top)}`,
    ` by part of the service (outermost frame that names one):\n${table(byPart, parts.length + 1)}`,
  ].join('\n');
}
