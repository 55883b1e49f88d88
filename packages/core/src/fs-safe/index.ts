export {
  appendSafelySync,
  describeKind,
  ensureDirSafelySync,
  privateDirProblem,
  underRoot,
  UnsafePathError,
  writeFileSafelySync,
  type SafeRootKind,
  type SafeWriteOptions,
} from './safe-write.ts';
