export * from './delivery-route-suite.ts';
export * from './transcript-reader-suite.ts';
export * from './transcript-subagent-suite.ts';
export * from './public-corpus-manifest.ts';
export * from './public-corpus-suite.ts';
export * from './transcript-latest-usage-suite.ts';
