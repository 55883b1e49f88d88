#!/usr/bin/env node
// Hook entries written by older versions run this file; it starts the current bin.
import './agent-checkpoint-hook.cjs';
