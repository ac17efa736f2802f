package report

import (
	"fmt"
	"html"
	"strings"
)

// HTML renders p as one self-contained page: inline CSS and SVG, no
// script, nothing loaded from anywhere, so that it opens offline, can be
// mailed or archived as one file, and prints. It shows the title and
// introduction, the charts, the failed engines' errors, every table (the
// best of a row in bold on green, a failed figure in red with '!'), and
// the environment.
func (p Page) HTML() string {
	var b strings.Builder
	title := p.Title
	if title == "" {
		title = "Benchmark report"
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"+
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n<main>\n",
		html.EscapeString(title), css)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", html.EscapeString(title))
	for _, l := range strings.Split(p.Intro, "\n") {
		fmt.Fprintf(&b, "<p class=\"intro\">%s</p>\n", html.EscapeString(l))
	}
	if len(p.Charts) > 0 {
		b.WriteString("<h2>Charts</h2>\n")
		b.WriteString(legend(p.Engines))
		for _, c := range p.Charts {
			c.figure(&b)
		}
	}
	var failed []Engine
	for _, e := range p.Engines {
		if e.Error != "" {
			failed = append(failed, e)
		}
	}
	if len(failed) > 0 {
		b.WriteString("<h2>Errors</h2>\n<ul class=\"errors\">\n")
		for _, e := range failed {
			fmt.Fprintf(&b, "<li><b>%s</b>: %s</li>\n", html.EscapeString(e.Name), html.EscapeString(e.Error))
		}
		b.WriteString("</ul>\n")
	}
	if len(p.Tables) > 0 {
		b.WriteString("<h2>Every figure</h2>\n")
		for _, t := range p.Tables {
			t.pruned().html(&b)
		}
	}
	if len(p.Environment) > 0 {
		b.WriteString("<h2>Environment</h2>\n<table class=\"env\">\n")
		for _, kv := range p.Environment {
			fmt.Fprintf(&b, "<tr><th>%s</th><td>%s</td></tr>\n", html.EscapeString(kv[0]), html.EscapeString(kv[1]))
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	return b.String()
}

// legend names each engine's color, once for every chart: it stays at
// the top of the window while the charts below it scroll past.
func legend(engines []Engine) string {
	var b strings.Builder
	b.WriteString("<ul class=\"legend\">")
	for i, e := range engines {
		fmt.Fprintf(&b, `<li><svg width="14" height="14" aria-hidden="true"><rect width="14" height="14" rx="2" fill="%s"/></svg>%s</li>`, Color(i), html.EscapeString(e.Name))
	}
	b.WriteString("</ul>\n")
	return b.String()
}

// figure writes c with its title and note: one chart, or its panels in a
// grid.
func (c Chart) figure(b *strings.Builder) {
	fmt.Fprintf(b, "<figure>\n<figcaption>%s", html.EscapeString(c.Title))
	if c.Note != "" {
		fmt.Fprintf(b, " <span class=\"note\">%s</span>", html.EscapeString(c.Note))
	}
	b.WriteString("</figcaption>\n")
	if len(c.Panels) == 0 {
		b.WriteString(c.svg(chartW, chartH, chartFont) + "\n</figure>\n")
		return
	}
	b.WriteString("<div class=\"panels\">\n")
	for _, p := range c.Panels {
		fmt.Fprintf(b, "<div class=\"panel\"><div class=\"panel-title\">%s</div>%s</div>\n", html.EscapeString(p.Title), p.svg(panelW, panelH, panelFont))
	}
	b.WriteString("</div>\n</figure>\n")
}

// html writes t as an HTML table.
func (t Table) html(b *strings.Builder) {
	b.WriteString("<div class=\"scroll\"><table>\n")
	if t.Title != "" {
		fmt.Fprintf(b, "<caption>%s</caption>\n", html.EscapeString(t.Title))
	}
	b.WriteString("<thead><tr>")
	for i, h := range t.Head {
		class := ""
		if i < t.Labels {
			class = ` class="l"`
		}
		fmt.Fprintf(b, "<th%s>%s</th>", class, html.EscapeString(h))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range t.Rows {
		if len(r.Labels) > 0 && r.Labels[0] != "" && t.Labels > 1 {
			b.WriteString("<tr class=\"first\">")
		} else {
			b.WriteString("<tr>")
		}
		for _, l := range r.Labels {
			fmt.Fprintf(b, "<td class=\"l\">%s</td>", html.EscapeString(l))
		}
		best := r.bests()
		for i, c := range r.Cells {
			text := html.EscapeString(c.Text)
			switch {
			case best[i]:
				fmt.Fprintf(b, "<td class=\"best\">%s</td>", text)
			case c.Failed:
				fmt.Fprintf(b, "<td class=\"failed\">%s !</td>", text)
			default:
				fmt.Fprintf(b, "<td>%s</td>", text)
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></div>\n")
}

// css styles the page for a screen and for print: charts are not split
// across pages, colors print as they show.
const css = `
:root { --fg: #1f2328; --muted: #59636e; --line: #d0d7de; --soft: #eef1f4; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; background: #fff; color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", Arial, sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 28px 32px 48px; }
h1 { font-size: 24px; margin: 0 0 10px; }
h2 { font-size: 18px; margin: 32px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
p.intro { margin: 2px 0; color: var(--muted); }
figure { margin: 18px 0 26px; break-inside: avoid; page-break-inside: avoid; }
figcaption { font-weight: 600; margin-bottom: 4px; }
.note { font-weight: 400; color: var(--muted); font-size: 13px; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 8px 0 4px; padding: 8px 12px;
  background: var(--soft); border-radius: 6px; font-size: 13px;
  position: sticky; top: 0; z-index: 2; box-shadow: 0 1px 3px rgba(31, 35, 40, 0.12); }
.legend li { display: flex; align-items: center; gap: 6px; }
svg.chart { display: block; width: 100%; height: auto; overflow: visible; }
svg.chart text { font-size: 11px; fill: #3d444d; }
.panel svg.chart text { font-size: 12px; }
svg.chart text.muted { fill: #8c959f; font-style: italic; }
svg.chart line.grid { stroke: #e4e8ec; stroke-width: 1; }
svg.chart line.axis { stroke: #8c959f; stroke-width: 1; }
svg.chart rect.failed { fill-opacity: 0.3; stroke: #b42318; stroke-dasharray: 3 2; }
svg.chart rect.faint { fill-opacity: 0.3; }
svg.chart .whisker { stroke: #1f2328; stroke-width: 1.2; fill: none; }
.panels { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 10px 22px; }
.panel-title { font-size: 13px; color: var(--muted); margin: 6px 0 0 60px; }
ul.errors { color: #b42318; padding-left: 20px; }
.scroll { overflow-x: auto; margin: 10px 0 22px; }
table { border-collapse: collapse; font-size: 12.5px; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 4px 0 6px; }
th, td { padding: 3px 10px; text-align: right; white-space: nowrap; border-bottom: 1px solid #eaeef2; }
th { background: var(--soft); font-weight: 600; }
th.l, td.l { text-align: left; }
tr.first td { border-top: 1px solid var(--line); }
td.best { font-weight: 700; background: #dcf2e3; }
td.failed { color: #b42318; }
table.env th { text-align: left; background: none; color: var(--muted); font-weight: 400; }
table.env td { text-align: left; white-space: normal; }
@media print {
  @page { margin: 12mm; }
  body { font-size: 10pt; }
  main { max-width: none; padding: 0; }
  h2 { break-after: avoid; page-break-after: avoid; }
  .scroll { overflow: visible; }
  .legend { position: static; box-shadow: none; }
  table { font-size: 8pt; break-inside: auto; }
  tr { break-inside: avoid; }
}
`
