export {
  appendSafely,
  appendSafelySync,
  describeKind,
  ensureDirSafelySync,
  privateDirProblem,
  underRoot,
  UnsafePathError,
  writeFileSafely,
  writeFileSafelySync,
  type SafeRootKind,
  type SafeWriteOptions,
} from './safe-write.ts';
