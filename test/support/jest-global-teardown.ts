import { leaveRunTmpdir } from './test-tmpdir';

/**
 * Jest global teardown: removes the run's temporary directory and fails the run, naming them, if
 * the tests left files there (each test removes what it creates, in afterAll or finally).
 */
export default function globalTeardown(): void {
  const leftovers = leaveRunTmpdir();
  if (leftovers.length > 0) {
    throw new Error(`the tests left files in their temporary directory (now removed): ${leftovers.join(', ')}`);
  }
}
