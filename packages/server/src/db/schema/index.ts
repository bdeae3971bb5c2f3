export * from './users';
export * from './market';
export * from './ledger';
export * from './support';
export * from './price-history';
