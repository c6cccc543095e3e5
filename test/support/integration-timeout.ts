// Integration tests start processes, brokers and databases: a longer budget per test.
jest.setTimeout(120_000);
