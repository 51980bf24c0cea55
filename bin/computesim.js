#!/usr/bin/env node
// The computesim command: runs the compiled CLI (npm run build first when working from a checkout).
import '../dist/cli/run.js';
