/**
 * The dashboard's stylesheet: the report's (so the figures look the same), and the page's own
 * layout around them: a bar of clock controls, the figures, and the feed beside them.
 */
import { REPORT_CSS } from '../report/html/reportStyle.js';

/** CSS of the dashboard page. */
export const DASHBOARD_CSS = `${REPORT_CSS}
body { max-width: 1500px; padding: 0 16px 24px; }
header.bar { position: sticky; top: 0; z-index: 2; background: var(--bg); padding: 10px 0;
  border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; }
header.bar h1 { font-size: 18px; margin: 0; }
.clock { font: 600 16px ui-monospace, monospace; }
.muted { color: var(--muted); }
.controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
button, select, input { font: inherit; padding: 3px 8px; }
input.by { width: 5em; }
.link { display: inline-block; width: 9px; height: 9px; border-radius: 50%; background: var(--unfinished); }
.link.up { background: var(--active); }
.link.down { background: var(--error); }
.problem { color: #c92a2a; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 420px; gap: 16px; }
@media (max-width: 1100px) { .layout { grid-template-columns: 1fr; } }
.pager { display: flex; gap: 8px; align-items: center; }
aside.feed { position: sticky; top: 64px; align-self: start; max-height: calc(100vh - 80px); display: flex; flex-direction: column; }
aside.feed ol { list-style: none; margin: 6px 0 0; padding: 0; overflow-y: auto;
  font: 12px/1.45 ui-monospace, monospace; border-top: 1px solid var(--line); }
aside.feed li { padding: 2px 0; border-bottom: 1px solid #f1f3f5; }
aside.feed li time { color: var(--muted); margin-right: 6px; }
aside.feed li.request { color: #1864ab; }
aside.feed li.request.failed { color: #c92a2a; }
aside.feed li.note { color: var(--muted); font-style: italic; }
form.key { margin: 40px auto; max-width: 520px; display: flex; flex-direction: column; gap: 8px; }
[hidden] { display: none !important; }
`;
