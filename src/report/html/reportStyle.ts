/**
 * The report's stylesheet, inlined into each file so it works offline and from anywhere.
 */
import { TICK_FONT_PX } from './tickLabelWidth.js';

/** CSS of the HTML report. */
export const REPORT_CSS = `
:root { --fg: #1f2933; --muted: #616e7c; --line: #cbd2d9; --bg: #ffffff;
  --init: #9aa5b1; --active: #2f9e44; --idle: #e4e7eb; --cu: #1c7ed6; --conn: #f08c00;
  --finished: #1c7ed6; --error: #e03131; --cancelled: #ae3ec9; --unfinished: #868e96; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1000px; padding: 24px; font: 14px/1.45 system-ui, sans-serif;
  color: var(--fg); background: var(--bg); }
h1 { margin: 0 0 4px; font-size: 24px; }
h2 { margin: 28px 0 4px; font-size: 18px; }
.about { margin: 0; font-size: 16px; }
.meta, .caption { margin: 4px 0; color: var(--muted); }
.verdict { display: inline-block; margin: 8px 0 0; padding: 4px 10px; border-radius: 4px; font-weight: 600; }
.pass { background: #ebfbee; color: #2b8a3e; }
.fail { background: #fff5f5; color: #c92a2a; }
figure { margin: 8px 0; overflow-x: auto; }
svg { display: block; max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
svg text { fill: var(--fg); }
.tick { fill: var(--muted); font-size: ${TICK_FONT_PX}px; }
.lane-label { font: 12px ui-monospace, monospace; }
.axis { stroke: var(--muted); stroke-width: 1; }
.axis-title { fill: var(--muted); font-size: 12px; }
.grid { stroke: var(--line); stroke-width: 1; stroke-dasharray: 2 3; }
.st-init { fill: var(--init); background: var(--init); }
.st-active { fill: var(--active); background: var(--active); }
.st-idle { fill: var(--idle); background: var(--idle); }
.op { stroke-width: 2; }
.op-finished { stroke: var(--finished); fill: var(--finished); background: var(--finished); }
.op-error { stroke: var(--error); fill: var(--error); background: var(--error); }
.op-cancelled { stroke: var(--cancelled); fill: var(--cancelled); background: var(--cancelled); }
.op-unfinished { stroke: var(--unfinished); fill: var(--unfinished); background: var(--unfinished); }
.series { fill: none; stroke-width: 2; }
.s-cu { stroke: var(--cu); fill: var(--cu); }
.s-active { stroke: var(--active); fill: var(--active); }
.s-connections { stroke: var(--conn); fill: var(--conn); }
.s-peak { stroke: var(--cu); fill: var(--cu); stroke-dasharray: 3 3; opacity: 0.6; }
rect.s-peak { stroke: none; }
.s-sessions { stroke: #7048e8; fill: #7048e8; stroke-dasharray: 5 3; }
rect.s-peak { stroke: var(--cu); fill: var(--cu); stroke-dasharray: 3 3; opacity: 0.6; }
rect.s-peak { stroke: none; }
.s-sessions { stroke: none; }
path.series { fill: none; }
.s-fork { stroke: #d6336c; fill: #d6336c; }
.s-fork-active { stroke: #d6336c; fill: #d6336c; stroke-dasharray: 4 2; }
.instant-mark { stroke: #d6336c; stroke-width: 1.5; stroke-dasharray: 6 3; }
.lane.fork .lane-label { fill: #d6336c; }
.delta { color: var(--muted); }
.delta.clear { color: var(--fg); font-weight: 600; }
.s-arm-0 { stroke: var(--cu); fill: var(--cu); }
.s-arm-1 { stroke: #d6336c; fill: #d6336c; }
.s-arm-2 { stroke: #f08c00; fill: #f08c00; }
.s-arm-3 { stroke: #7048e8; fill: #7048e8; }
.s-arm-4 { stroke: #0ca678; fill: #0ca678; }
.s-arm-5 { stroke: #495057; fill: #495057; }
.s-seed { stroke: var(--unfinished); fill: var(--unfinished); }
path.band, rect.band { stroke: none; fill-opacity: 0.2; }
.marker { stroke: var(--bg); stroke-width: 1; }
.dot { stroke: none; fill-opacity: 0.6; }
.lane.arm-1 .lane-label { fill: #d6336c; }
.lane.arm-2 .lane-label { fill: #e67700; }
.lane.arm-3 .lane-label { fill: #7048e8; }
.lane.arm-4 .lane-label { fill: #0ca678; }
.lane.arm-5 .lane-label { fill: #495057; }
.paired thead th, .sweep-grid thead th { font-weight: 600; text-align: right; }
.paired thead th[colspan] { text-align: center; }
.paired thead th:first-child, .sweep-grid thead th:first-child { text-align: left; }
.metrics .note { color: var(--muted); font-size: 12px; }
.sweep-grid td, .sweep-grid tbody th { white-space: nowrap; }
.sweep-grid thead th { vertical-align: bottom; }
.legend-row { color: var(--muted); }
.key { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 10px; vertical-align: -1px; border-radius: 2px; }
table.metrics { border-collapse: collapse; min-width: 420px; }
.metrics th, .metrics td { padding: 3px 12px; border-bottom: 1px solid var(--line); text-align: left; }
.metrics td { text-align: right; font-variant-numeric: tabular-nums; }
.metrics th { font-weight: normal; }
ol.timeline { list-style: none; padding: 0; font: 12px/1.5 ui-monospace, monospace; }
ol.timeline time { color: var(--muted); margin-right: 8px; }
.tl-event { color: var(--muted); padding-left: 2em; }
.tl-check { color: #2b8a3e; }
.tl-failure { color: #c92a2a; font-weight: 600; }
.tl-note { font-weight: 600; }
`;
