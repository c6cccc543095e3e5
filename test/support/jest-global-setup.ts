import { enterRunTmpdir } from './test-tmpdir';

/** Jest global setup: the run's own temporary directory (test/support/test-tmpdir.ts). */
export default function globalSetup(): void {
  enterRunTmpdir();
}
