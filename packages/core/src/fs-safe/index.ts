export {
  appendSafely,
  appendSafelySync,
  describeKind,
  ensureDirSafelySync,
  privateDirProblem,
  UnsafePathError,
  writeFileSafely,
  writeFileSafelySync,
  type SafeRootKind,
  type SafeWriteOptions,
} from './safe-write.ts';
