// Preloaded by bench/run.mjs when BENCH_CPU_PROF is set: a clean process.exit() on SIGUSR2 so that
// node --cpu-prof writes its profile (a death by signal would not).
process.on('SIGUSR2', () => process.exit(0));
