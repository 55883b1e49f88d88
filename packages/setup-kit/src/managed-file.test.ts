import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitInstall, installRecordPath, installsDir, readInstallRecord } from './managed-file.ts';

/*
 * Install records and backups live in the state directory, whose contents the agent may have planted
 * (issue 12 class 2): a link there must never be written through.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(): { root: string; stateDir: string; settings: string; target: string } {
  const root = mkdtempSync(join(tmpdir(), 'ac-managed-'));
  dirs.push(root);
  const stateDir = join(root, 'state');
  mkdirSync(stateDir, { mode: 0o700 });
  const settings = join(root, 'project', 'settings.json');
  mkdirSync(join(root, 'project'));
  writeFileSync(settings, '{"user":true}\n');
  const target = join(root, 'victim.txt');
  writeFileSync(target, 'precious\n');
  return { root, stateDir, settings, target };
}

const change = (settings: string) => ({ path: settings, before: Buffer.from('{"user":true}\n'), after: Buffer.from('{"user":true,"hooks":{}}\n') });

describe('commitInstall in a state directory with planted links', () => {
  it('writes the record and the backup as regular private files', async () => {
    const { stateDir, settings } = setup();
    const result = await commitInstall({ stateDir, change: change(settings), hadOurEntries: false, by: 'test' });
    expect(result.changed).toBe(true);
    expect(lstatSync(installRecordPath(stateDir, settings)).isFile()).toBe(true);
    expect(lstatSync(installRecordPath(stateDir, settings)).mode & 0o777).toBe(0o600);
    expect(readFileSync(result.backup as string, 'utf8')).toBe('{"user":true}\n');
    expect((await readInstallRecord(stateDir, settings))?.path).toBe(settings);
  });

  it('refuses a symlink planted as the install record; its target stays untouched', async () => {
    const { stateDir, settings, target } = setup();
    mkdirSync(installsDir(stateDir), { mode: 0o700 });
    symlinkSync(target, installRecordPath(stateDir, settings));
    await expect(commitInstall({ stateDir, change: change(settings), hadOurEntries: false, by: 'test' })).rejects.toThrow(/not a regular file/);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(lstatSync(installRecordPath(stateDir, settings)).isSymbolicLink()).toBe(true);
    // Refused before the settings file was touched.
    expect(readFileSync(settings, 'utf8')).toBe('{"user":true}\n');
  });

  it('refuses a symlink planted as the backup file; its target stays untouched', async () => {
    const { stateDir, settings, target } = setup();
    const now = new Date('2026-01-02T03:04:05.678Z');
    // The backup name is predictable from the settings path and the time.
    const first = await commitInstall({ stateDir, change: change(settings), hadOurEntries: false, by: 'test', now });
    const backup = first.backup as string;
    rmSync(backup);
    symlinkSync(target, backup);
    const again = { path: settings, before: Buffer.from('{"user":true,"hooks":{}}\n'), after: Buffer.from('{"user":2}\n') };
    await expect(commitInstall({ stateDir, change: again, hadOurEntries: true, by: 'test', now })).rejects.toThrow(/not a regular file/);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(basename(backup)).toMatch(/^settings\.json\./);
  });

  it('refuses a symlinked installs/backups directory; nothing lands in its target', async () => {
    const { root, stateDir, settings } = setup();
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(installsDir(stateDir), { mode: 0o700 });
    symlinkSync(elsewhere, join(installsDir(stateDir), 'backups'));
    await expect(commitInstall({ stateDir, change: change(settings), hadOurEntries: false, by: 'test' })).rejects.toThrow(/symlink/);
    expect(readFileSync(join(root, 'project', 'settings.json'), 'utf8')).toBe('{"user":true}\n');
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('readInstallRecord', () => {
  it('never reads a record through a planted symlink (a record decides what uninstall restores)', async () => {
    const { root, stateDir, settings } = setup();
    const forged = join(root, 'forged.json');
    writeFileSync(forged, JSON.stringify({ version: 1, path: settings, originalExisted: true, original: 'ZXZpbA==', installedSha256: 'x', createdDirs: [], installedAt: 'now', by: 'evil' }));
    mkdirSync(installsDir(stateDir), { mode: 0o700 });
    symlinkSync(forged, installRecordPath(stateDir, settings));
    expect(await readInstallRecord(stateDir, settings)).toBeUndefined();
    // The same bytes as a regular file are read: the refusal is about the link.
    rmSync(installRecordPath(stateDir, settings));
    writeFileSync(installRecordPath(stateDir, settings), readFileSync(forged));
    expect((await readInstallRecord(stateDir, settings))?.by).toBe('evil');
  });
});
