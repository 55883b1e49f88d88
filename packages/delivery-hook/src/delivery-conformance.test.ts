import { deliveryRouteSuite } from '@agent-checkpoint/core/conformance';
import { DELIVERY_FIXTURES } from './test-support/delivery-fixtures.ts';
import { hookRouteAdapter } from './test-support/hook-route-adapter.ts';

// The shared delivery conformance suite, run against the bundled hook for every agent with a delivery fixture.
deliveryRouteSuite({ route: hookRouteAdapter, fixtures: DELIVERY_FIXTURES, supportsStopHookActive: true });
