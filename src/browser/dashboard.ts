/**
 * The dashboard page's script (bundled into the page: see src/programs/pageScript.ts). It finds the
 * key or asks for it, then reads the event stream into the feed and the clock, asks for the figures
 * on screen whenever something changed, and drives the clock through the `_sim` control routes.
 */
import { ApiClient, Unauthorized } from './apiClient.js';
import { ClockView } from './clockView.js';
import { Controls, errorText } from './controls.js';
import { EventStream } from './eventStream.js';
import { FeedView } from './feedView.js';
import { FiguresView } from './figuresView.js';
import { keepKey, KeyPrompt, takeKey } from './keyPrompt.js';
import { LaneWindow } from './laneWindow.js';
import { pageElements } from './pageElements.js';
import { RedrawPacer } from './redrawPacer.js';
import { StatusView } from './statusView.js';
import { applyMessage } from './streamMessages.js';
import type { ViewAnswer } from './wire.js';

const page = pageElements(document);
const prompt = new KeyPrompt(page);
// The page says where the API is (the server writes its one definition into the page).
const api = new ApiClient(document.body.dataset['api'] ?? '', (message) => prompt.ask(message));
const status = new StatusView(page);
const clock = new ClockView(page);
const feed = new FeedView(page.feed, () => clock.start);
const figures = new FiguresView(page);
const lanes = new LaneWindow();
const pacer = new RedrawPacer(loadView, (error) => {
  if (!(error instanceof Unauthorized))
    status.say(`cannot load the figures: ${errorText(error)}`, true);
});
const controls = new Controls(api, status, {
  clock: (now, mode) => clock.show(now, mode),
  redraw: () => pacer.request(),
});
const stream = new EventStream(api, {
  message: (event, data) =>
    applyMessage(event, data, {
      addLine: (line) => feed.add(line),
      clock: (news) => {
        clock.show(news.now, news.mode);
        figures.events(news.events);
        pacer.request();
      },
      reset: () => {
        feed.lines.clear();
        clock.start = undefined;
        feed.render();
      },
    }),
  link: (how) => status.link(how),
  stopped: () => prompt.asking,
});

/** Asks for the figures of the lanes and project on screen, and shows them. */
async function loadView(): Promise<void> {
  const query = new URLSearchParams({ first: String(lanes.first), count: String(lanes.count) });
  if (feed.lines.project !== '') query.set('project', feed.lines.project);
  const response = await api.call('GET', `/_sim/view?${query}`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const view = (await response.json()) as ViewAnswer;
  const firstTime = clock.start === undefined;
  clock.start = view.start;
  lanes.total = view.lanes.total;
  lanes.first = view.lanes.first;
  // The feed's times count from the start from now on.
  if (firstTime) feed.render();
  clock.show(view.now);
  figures.show(view);
}

function moveLanes(by: number): void {
  if (lanes.move(by)) pacer.request();
}

function start(): void {
  prompt.close();
  lanes.fit(innerHeight);
  pacer.request();
  void stream.run();
}

page['key-form'].addEventListener('submit', (event) => {
  event.preventDefault();
  const key = page['key-input'].value.trim();
  keepKey(key);
  api.key = key;
  start();
});
page.pause.addEventListener('click', () => void controls.send('/clock', { mode: 'manual' }));
page.step.addEventListener('click', () => void controls.send('/step'));
page.advance.addEventListener(
  'click',
  () => void controls.send('/advance', { by: page.by.value.trim() }),
);
page['advance-5m'].addEventListener('click', () => void controls.send('/advance', { by: '5m' }));
page.idle.addEventListener('click', () => void controls.send('/run_until_idle'));
page.speed.addEventListener(
  'change',
  () => void controls.send('/clock', { mode: page.speed.value }),
);
page.download.addEventListener('click', () => void controls.download());
page.project.addEventListener('change', () => {
  feed.lines.project = page.project.value;
  lanes.first = 0;
  feed.render();
  pacer.request();
});
page['lanes-up'].addEventListener('click', () => moveLanes(-lanes.count));
page['lanes-down'].addEventListener('click', () => moveLanes(lanes.count));
page.lanes.addEventListener(
  'wheel',
  (event) => {
    if (!lanes.scrolls()) return;
    event.preventDefault();
    moveLanes(event.deltaY > 0 ? 1 : -1);
  },
  { passive: false },
);

api.key = takeKey();
if (api.key === undefined) prompt.ask('');
else start();
