export * from './users';
export * from './market';
export * from './ledger';
export * from './support';
export * from './replicas';
export * from './networks';
export * from './back-office';
export * from './security';
