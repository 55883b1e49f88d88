export {
  createDeliveryWorld,
  type DeliveryFixture,
  type DeliveryRouteAdapter,
  deliveryRouteSuite,
  type DeliveryRouteSuiteOptions,
  type DeliveryScenario,
  type DeliveryWorld,
} from './delivery-route-suite.ts';
export { publicCorpusFiles } from './public-corpus-manifest.ts';
export {
  describePublicCorpusConformance,
  type ExpectedCall,
  type ExpectedFile,
  type ExpectedTurn,
  type KnownCorpusDeviations,
  type PublicCorpusConformanceOptions,
} from './public-corpus-suite.ts';
export { describeLatestUsageConformance, type LatestUsageConformanceOptions } from './transcript-latest-usage-suite.ts';
export { describeTranscriptReaderConformance, type TranscriptReaderConformanceOptions } from './transcript-reader-suite.ts';
export { type RecordedEndOfTurnEvent, recordedTranscripts } from './transcript-recorded-fixtures.ts';
