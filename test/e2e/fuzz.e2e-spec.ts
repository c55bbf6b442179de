import { describeFuzz } from '../support/fuzz-suite';

// Fuzzing of the whole API, part 1 of 2 (test/support/fuzz-suite.ts tells how and which knobs).
describeFuzz(1, 2, 'test/e2e/fuzz.e2e-spec.ts');
