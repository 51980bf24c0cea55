/**
 * The page `serve` answers at `/`: a shell with no data in it (a browser cannot send a bearer key
 * when it opens a URL). Its script (`src/browser/`) asks for the key, or takes it from the URL
 * fragment (`/#key=…`, never sent to the server), and loads everything else through the API.
 */
import { DASHBOARD_CSS } from './dashboardStyle.js';

/** The speeds the page offers (any `Nx` works through the API). */
const SPEEDS = ['manual', 'realtime', '10x', '60x', '600x', '3600x'];

/**
 * The dashboard page: HTML, CSS and `script` (the bundled page script) in one text; `api` is where
 * the API is on the same origin (`/api/v2`), which the script reads from the page's body.
 */
export function dashboardPage(script: string, api: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>computesim: live</title>
<style>${DASHBOARD_CSS}</style>
</head>
<body data-api="${api}">
<form id="key-form" class="key" hidden>
<h1>computesim</h1>
<label for="key-input">The API key <code>computesim serve</code> printed (or open the URL it printed, with <code>#key=…</code>):</label>
<input id="key-input" type="password" autocomplete="off" required>
<button type="submit">Connect</button>
<p id="key-problem" class="problem"></p>
</form>
<div id="app" hidden>
<header class="bar">
<h1>computesim</h1>
<span class="link" id="link" title="connecting…"></span>
<span class="clock" id="clock">…</span>
<span class="muted" id="since"></span>
<span class="muted">clock <span id="mode"></span> · <span id="events"></span></span>
<span class="controls">
<button id="pause" type="button" title="Stop the clock (manual: it moves only when asked)">Pause</button>
<button id="step" type="button" title="To the next instant any work is due">Step</button>
<input id="by" class="by" value="1m" aria-label="advance by">
<button id="advance" type="button">Advance</button>
<button id="advance-5m" type="button">Advance 5 minutes</button>
<button id="idle" type="button" title="Until every operation settled and idle computes suspended">Run until idle</button>
<label>speed <select id="speed">${SPEEDS.map((s) => `<option value="${s}">${s}</option>`).join('')}</select></label>
<button id="download" type="button">Download report</button>
</span>
<span id="status" class="muted" role="status"></span>
</header>
<div class="layout">
<main>
<section><h2>Computes</h2>
<p class="caption pager"><button id="lanes-up" type="button" aria-label="earlier computes">▲</button><button id="lanes-down" type="button" aria-label="later computes">▼</button><span id="lane-range"></span> · state over time, ticks are operations; only the lanes on screen are drawn</p>
<figure id="lanes"></figure></section>
<section><h2>Compute units</h2><p class="caption">Total size of the active computes (CU), mean and peak.</p><figure id="cu"></figure></section>
<section><h2>Activity</h2><p class="caption">Active computes and open connections.</p><figure id="activity"></figure></section>
<section><h2>Operations</h2><figure id="operations"></figure></section>
<section><h2>Metrics</h2><div id="metrics"></div></section>
</main>
<aside class="feed">
<h2>Feed</h2>
<label>project <select id="project"><option value="">all projects</option></select></label>
<ol id="feed" aria-live="off"></ol>
</aside>
</div>
</div>
<script>${script}</script>
</body>
</html>
`;
}
