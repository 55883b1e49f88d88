import { describe, expect, test } from 'vitest';
import { matchesEvidence } from './match-evidence.ts';
import { parseShellCommand } from './parse-shell-command.ts';

const ps = (text: string) => parseShellCommand(text, 'powershell');

describe('PowerShell commands (Claude Code’s PowerShell tool on Windows)', () => {
  test('a backslash is a path separator, not an escape', () => {
    const [seg] = ps('Get-Content src\\app\\a.ts');
    expect(seg?.args).toEqual(['src\\app\\a.ts']);
    expect(ps('Remove-Item -Recurse -Force .\\dist')[0]?.args).toEqual(['-Recurse', '-Force', '.\\dist']);
    expect(ps('cat "C:\\Users\\dev\\repo\\a.ts"')[0]?.args).toEqual(['C:\\Users\\dev\\repo\\a.ts']);
  });

  test('the backtick escapes and continues lines', () => {
    expect(ps('python -m pytest tests `\n  --maxfail=1')[0]?.args).toEqual(['tests', '--maxfail=1']);
    expect(ps('echo "a`"b"')[0]?.args).toEqual(['a"b']);
  });

  test('cd, Set-Location, sl and Push-Location change the directory of later commands, in any case', () => {
    expect(ps('cd C:\\Users\\dev\\repo\\web; npm run build')[1]?.dir).toBe('C:\\Users\\dev\\repo\\web');
    expect(ps('Set-Location "C:\\Users\\dev\\repo\\web"; npm run build')[1]?.dir).toBe('C:\\Users\\dev\\repo\\web');
    expect(ps('set-location -Path web; npm test')[1]?.dir).toBe('web');
    expect(ps('Push-Location api; npm test; Pop-Location; npm test').map((s) => [s.dir, s.dirUnknown])).toEqual([
      [undefined, false],
      ['api', false],
      ['api', false],
      ['api', true],
    ]);
    expect(ps('cd web; cd C:\\elsewhere; make')[2]?.dir).toBe('C:\\elsewhere');
  });

  test('a test run in a Set-Location directory, followed by an $LASTEXITCODE check, is one test run there', () => {
    const segments = ps('Set-Location C:\\repo\\web; npm test; if ($LASTEXITCODE -ne 0) { Write-Error "tests failed"; exit 1 }');
    const runs = segments.filter((s) => matchesEvidence(s, 'npm test'));
    expect(runs.map((s) => s.dir)).toEqual(['C:\\repo\\web']);
    expect(segments.some((s) => matchesEvidence(s, 'make restart'))).toBe(false);
  });

  test('the call operator with a full Windows launcher path runs the program it names', () => {
    const [seg] = ps('& "C:\\Program Files\\nodejs\\npm.cmd" test');
    expect(seg?.program).toBe('npm');
    expect(seg && matchesEvidence(seg, 'npm test')).toBe(true);
  });

  test('restart cmdlets and restart scripts are programs that evidence can name', () => {
    const segments = ps('Stop-Process -Name node -Force; Restart-Service -Name MyApp; & C:\\tools\\restart.cmd web');
    expect(segments.map((s) => s.program)).toEqual(['Stop-Process', 'Restart-Service', 'restart']);
    expect(segments.some((s) => matchesEvidence(s, 'Restart-Service MyApp'))).toBe(true);
    expect(segments.some((s) => matchesEvidence(s, 'restart web'))).toBe(true);
    expect(segments.some((s) => matchesEvidence(s, 'npm test'))).toBe(false);
    // sh keeps its own quoting: there a backslash still escapes.
    expect(parseShellCommand('echo a\\ b')[0]?.args).toEqual(['a b']);
    expect(parseShellCommand('cd C:\\x; make')[1]?.dir).toBe('C:x');
  });
});
