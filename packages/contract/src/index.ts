import 'reflect-metadata';
export * from './routes';
export * from './common';
export * from './auth';
export * from './health';
