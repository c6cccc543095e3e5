// Each attack starts a server, attacks it and measures it: a minute at most. Every request has a
// shorter timeout of its own (REQUEST_TIMEOUT_MS), so a service that hangs fails a test in seconds.
jest.setTimeout(60_000);
