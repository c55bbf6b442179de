/** What a secret is replaced with in log lines, error reports and /management/env. */
export const MASK = '******';
