import { describeFuzz } from '../support/fuzz-suite';

// Fuzzing of the whole API, part 2 of 2 (test/support/fuzz-suite.ts tells how and which knobs).
describeFuzz(2, 2, 'test/e2e/fuzz-part2.e2e-spec.ts');
