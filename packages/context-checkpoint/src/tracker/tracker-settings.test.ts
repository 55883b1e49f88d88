import { describe, expect, it } from 'vitest';
import { LINEAR_API_ENDPOINT, LINEAR_ENDPOINT_ENV, parseTrackerSettings, resolveLinearEndpoint } from './tracker-settings.ts';

describe('parseTrackerSettings', () => {
  it('is off by default, with the seed defaults', () => {
    expect(parseTrackerSettings(undefined)).toEqual({
      settings: {
        enabled: false,
        provider: 'linear',
        issuePattern: '[A-Z][A-Z0-9]+-\\d+',
        apiKeyEnv: 'LINEAR_API_KEY',
        commentOn: ['L2', 'L3'],
        l3Label: 'context-checkpointed',
        shardDoneState: 'Done',
        timeoutMs: 5_000,
      },
      diagnostics: [],
    });
  });

  it('accepts a full valid object', () => {
    const { settings, diagnostics } = parseTrackerSettings({ enabled: true, l3State: 'In Progress', apiKeyEnv: 'MY_LINEAR_KEY', commentOn: ['L3'] });
    expect(diagnostics).toEqual([]);
    expect(settings).toMatchObject({ enabled: true, l3State: 'In Progress', apiKeyEnv: 'MY_LINEAR_KEY', commentOn: ['L3'] });
  });

  it('refuses a configuration that tries to set the endpoint (the key must never be redirected)', () => {
    for (const key of ['endpoint', 'url', 'apiUrl', 'baseUrl']) {
      const { settings, diagnostics } = parseTrackerSettings({ enabled: true, [key]: 'https://collector.example.com/graphql' });
      expect(settings.enabled).toBe(false);
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toContain(`tracker.${key}: refused`);
    }
    // Even a loopback endpoint may not come from a file.
    expect(parseTrackerSettings({ enabled: true, endpoint: 'http://127.0.0.1:9/graphql' }).settings.enabled).toBe(false);
  });

  it('refuses a key variable that is not a LINEAR one (a hostile file must not ship another secret to Linear)', () => {
    const { settings, diagnostics } = parseTrackerSettings({ enabled: true, apiKeyEnv: 'AWS_SECRET_ACCESS_KEY' });
    expect(settings.enabled).toBe(false);
    expect(diagnostics.join('\n')).toContain('tracker.apiKeyEnv: must contain LINEAR');
    expect(parseTrackerSettings({ enabled: true, apiKeyEnv: 'linear key' }).settings.enabled).toBe(false);
  });

  it('an invalid pattern or unknown key disables the tracker with a diagnostic, never a throw', () => {
    expect(parseTrackerSettings({ enabled: true, issuePattern: '([A-Z' }).diagnostics.join()).toContain('tracker.issuePattern');
    expect(parseTrackerSettings({ enabled: true, apiKey: 'lin_api_x' }).settings.enabled).toBe(false);
    expect(parseTrackerSettings('yes').settings.enabled).toBe(false);
    expect(parseTrackerSettings([1]).settings.enabled).toBe(false);
  });
});

describe('resolveLinearEndpoint', () => {
  it('is the official endpoint unless the environment overrides it', () => {
    expect(resolveLinearEndpoint({})).toEqual({ ok: true, url: LINEAR_API_ENDPOINT });
    expect(resolveLinearEndpoint({ [LINEAR_ENDPOINT_ENV]: '' })).toEqual({ ok: true, url: LINEAR_API_ENDPOINT });
  });

  it('accepts loopback overrides only', () => {
    for (const url of ['http://127.0.0.1:4000/graphql', 'http://localhost:4000/graphql', 'http://[::1]:4000/graphql']) {
      expect(resolveLinearEndpoint({ [LINEAR_ENDPOINT_ENV]: url })).toEqual({ ok: true, url });
    }
    for (const url of [
      'https://api.linear.app.evil.example/graphql',
      'http://127.0.0.1.nip.io/graphql',
      'http://10.0.0.1/graphql',
      'http://0.0.0.0:4000/graphql',
      'http://user:pw@127.0.0.1:4000/graphql',
      'file:///etc/passwd',
      'not a url',
    ]) {
      const result = resolveLinearEndpoint({ [LINEAR_ENDPOINT_ENV]: url });
      expect(result.ok, url).toBe(false);
    }
  });
});
