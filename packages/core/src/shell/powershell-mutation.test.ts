import { describe, expect, test } from 'vitest';
import { analyzeMutation } from './analyze-mutation.ts';
import { parseShellCommand } from './parse-shell-command.ts';

const targets = (command: string) =>
  parseShellCommand(command, 'powershell').flatMap((segment) => analyzeMutation(segment).targets.map((t) => `${t.effect} ${t.path}`));

describe('PowerShell file cmdlets are mutations of the files they name', () => {
  test.each([
    ['Remove-Item -Recurse -Force .\\dist', ['delete .\\dist']],
    ['remove-item -LiteralPath src\\old.ts', ['delete src\\old.ts']],
    ['del notes.txt', ['delete notes.txt']],
    ["Set-Content -Path a.txt -Value 'x'", ['write a.txt']],
    ["Set-Content a.txt 'x' -Encoding utf8", ['write a.txt']],
    ["Add-Content -Path log.txt -Value 'line'", ['append log.txt']],
    ["'x' | Out-File -FilePath out.txt -Append", ['append out.txt']],
    ['Get-Date | Out-File report.txt', ['write report.txt']],
    ['New-Item -ItemType File -Path src\\new.ts -Force', ['create src\\new.ts']],
    ['New-Item -Path src -Name new.ts -ItemType File', ['create src/new.ts']],
    ['Copy-Item a.ts b.ts', ['write b.ts']],
    ['Copy-Item -Path a.ts -Destination backup\\a.ts', ['write backup\\a.ts']],
    ['Move-Item src\\a.ts lib\\a.ts', ['move src\\a.ts', 'move lib\\a.ts']],
    ['Rename-Item -Path src\\a.ts -NewName b.ts', ['move src\\a.ts', 'move src\\b.ts']],
    ['Clear-Content -Path:cache.json', ['write cache.json']],
    // A dynamic path names no file we can know; the next command still counts.
    ['Remove-Item $env:TEMP\\x; Remove-Item a.ts', ['delete a.ts']],
  ])('%s', (command, expected) => {
    expect(targets(command)).toEqual(expected);
  });

  test('in a command line of reading cmdlets, only the write is a mutation', () => {
    expect(targets("Get-Content src\\a.ts; Get-ChildItem -Recurse; Set-Content b.txt 'x'; Select-String -Path *.ts -Pattern TODO; Test-Path a.ts")).toEqual([
      'write b.txt',
    ]);
  });
});
