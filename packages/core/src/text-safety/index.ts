export { escapeControls, forMarkdownCode, forMarkdownLine, forModelName, forModelText, forShellArg, forTerminal, hasControlCharacters } from './text-safety.ts';
