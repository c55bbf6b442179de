/**
 * The rate limits switched off: most tests create far more shorts from one address than a public
 * instance allows (LIMIT_* defaults). The limits' own tests set them explicitly.
 */
export const NO_LIMITS = {
  LIMIT_ANON_CREATE: 'off',
  LIMIT_USER_CREATE: 'off',
  LIMIT_QR_RENDER: 'off',
  LIMIT_HEALTH_CHECK: 'off',
  LIMIT_DOMAIN_VERIFY: 'off',
  LIMIT_TEAM_CREATE: 'off',
} as const;
