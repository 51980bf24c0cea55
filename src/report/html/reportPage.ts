/**
 * The page around a report's sections: one self-contained HTML file (inline stylesheet, no
 * scripts, nothing fetched) with a heading, a line on what it is, and a line of facts.
 */
import { escapeXml } from './escapeXml.js';
import { REPORT_CSS } from './reportStyle.js';

/** What a report page says above its sections; every text is escaped, `main` is HTML. */
export interface ReportPage {
  /** The window's title. */
  readonly title: string;
  readonly heading: string;
  /** One line on what was run (a study's description). */
  readonly about?: string | undefined;
  /** Seeds, spans and instants. */
  readonly meta: string;
  /** The sections, as HTML. */
  readonly main: string;
}

/** The whole HTML file of `page`. */
export function reportPage(page: ReportPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(page.title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${escapeXml(page.heading)}</h1>
${page.about === undefined ? '' : `<p class="about">${escapeXml(page.about)}</p>\n`}<p class="meta">${escapeXml(page.meta)}</p>
</header>
<main>
${page.main}
</main>
</body>
</html>
`;
}
