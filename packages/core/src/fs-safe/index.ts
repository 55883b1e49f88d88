export {
  appendSafelySync,
  describeKind,
  ensureDirSafelySync,
  privateDirProblem,
  privateEntryProblem,
  underRoot,
  UnsafePathError,
  writeFileSafelySync,
  type SafeRootKind,
  type SafeWriteOptions,
} from './safe-write.ts';
