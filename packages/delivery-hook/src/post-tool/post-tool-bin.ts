// Entry of agent-checkpoint-hook-monitor.cjs: `agent-checkpoint-hook post-tool <agent> [--debug]`.
import { mainPostTool } from './post-tool-main.ts';

void mainPostTool(process.argv.slice(3));
