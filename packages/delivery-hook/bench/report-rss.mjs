// Preloaded with `node --import` by the startup benchmark: reports the process's peak RSS (KiB) on
// stderr as the very last line, the same way for `node -e ''` and for the hook.
process.on('exit', () => {
  process.stderr.write(`\nMAXRSS_KB=${process.resourceUsage().maxRSS}\n`);
});
