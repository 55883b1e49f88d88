export * from './delivery-route-suite.ts';
export * from './transcript-reader-suite.ts';
