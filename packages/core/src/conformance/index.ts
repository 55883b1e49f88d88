export * from './delivery-route-suite.ts';
