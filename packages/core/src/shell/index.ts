export * from './shell-lexer.ts';
export * from './unwrap-command.ts';
export * from './parse-shell-command.ts';
export * from './match-evidence.ts';
export * from './analyze-mutation.ts';
export * from './analyze-read.ts';
export * from './patch-text.ts';
export * from './path-like-args.ts';
