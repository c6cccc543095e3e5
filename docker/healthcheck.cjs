#!/usr/bin/env node
// Container health check used by docker/compose.yaml:
//   node docker/healthcheck.cjs https://127.0.0.1:8443/health/ready
// Exits 0 when the URL answers 2xx within the timeout, 1 otherwise. The image has no curl or
// wget, and the gateway's certificate is self-signed by default; this only ever calls the
// container's own loopback, so certificate verification is off.
'use strict';

const http = require('node:http');
const https = require('node:https');

const TIMEOUT_MS = 4000;
const target = new URL(process.argv[2] || 'https://127.0.0.1:8443/health/ready');
const client = target.protocol === 'https:' ? https : http;

const request = client.get(target, { rejectUnauthorized: false, timeout: TIMEOUT_MS }, (response) => {
  response.resume();
  const healthy = response.statusCode >= 200 && response.statusCode < 300;
  if (!healthy) console.error(`${target.href} answered ${response.statusCode}`);
  process.exit(healthy ? 0 : 1);
});
request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
request.on('error', (error) => {
  console.error(`${target.href}: ${error.message}`);
  process.exit(1);
});
