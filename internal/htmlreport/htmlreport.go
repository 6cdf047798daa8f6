// Package htmlreport is the report page of robots scan and robots logs:
// a title, a headline, and tables whose rows carry horizontal bars, as
// one self-contained HTML page (inline CSS, no script, no external
// request) or as GitHub-flavoured Markdown. Every string of a View is
// text: html/template escapes it, MD escapes it for Markdown.
package htmlreport

import (
	"bufio"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// WriteHTML writes the view as one self-contained HTML page.
func WriteHTML(w io.Writer, v *View) error { return page.Execute(w, v) }

// WriteMarkdown writes the view's tables as GitHub-flavoured Markdown:
// counts with their shares, and a note for the rows cut (Table.Hidden).
func WriteMarkdown(w io.Writer, r *View) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n\n%s\n\n%s\n", r.Title, MD(r.Lead), MD(r.About))
	for _, t := range r.Tables {
		fmt.Fprintf(bw, "\n## %s\n\n%s\n", MD(t.Title), MD(t.Note))
		if len(t.Sources) > 0 {
			bw.WriteString("\nSources: ")
			for i, l := range t.Sources {
				if i > 0 {
					bw.WriteString("; ")
				}
				fmt.Fprintf(bw, "[%s](%s)", MD(l.Text), l.URL)
			}
			bw.WriteString(".\n")
		}
		bw.WriteString("\n")
		if len(t.Rows) == 0 {
			fmt.Fprintf(bw, "%s\n", MD(t.Empty))
			continue
		}
		row := func(cells []string) {
			bw.WriteString("|")
			for _, c := range cells {
				fmt.Fprintf(bw, " %s |", MD(c))
			}
			bw.WriteString("\n")
		}
		row(t.Cols)
		bw.WriteString("|")
		for i := range t.Cols {
			if i == 0 {
				bw.WriteString(" --- |")
			} else {
				bw.WriteString(" ---: |")
			}
		}
		bw.WriteString("\n")
		for _, x := range t.Rows {
			cells := make([]string, len(x.Cells))
			for i, c := range x.Cells {
				if sh := x.Share(i); sh != "" {
					c += " (" + sh + ")"
				}
				cells[i] = c
			}
			row(cells)
		}
		if t.Hidden > 0 {
			fmt.Fprintf(bw, "\n%d more in the JSON form.\n", t.Hidden)
		}
	}
	return bw.Flush()
}

// A View is what WriteMarkdown and WriteHTML show: a title, a
// headline of what was counted, what the words of the headline mean, and
// the tables.
type View struct {
	Title  string
	Lead   string
	About  string
	Tables []Table
}

// A Table is one table of the report. Its strings are text:
// WriteMarkdown and WriteHTML escape them.
type Table struct {
	ID, Title, Note string
	Sources         []Link
	Cols            []string
	Groups          []Group // HTML: headings over runs of Cols, left to right
	Rows            []Row
	Legend          []Seg  // names the segments of stacked bars
	Hidden          int    // rows cut from the report
	Empty           string // said when there are no rows
	// Text marks a table of text rather than counts: its cells are
	// aligned left and its rows have no bars.
	Text bool
}

// A Group is a heading over Span columns of a table; the HTML draws
// a line before each named group, and lets the headings and names of a
// table with groups wrap, to fit a narrow window.
type Group struct {
	Name string
	Span int
}

// ColClass returns the CSS class of column i: "gs" when a named group
// starts there.
func (t Table) ColClass(i int) string {
	at := 0
	for _, g := range t.Groups {
		if at == i {
			if g.Name != "" {
				return "gs"
			}
			return ""
		}
		at += g.Span
	}
	return ""
}

type Link struct{ Text, URL string }

type Row struct {
	Cells []string
	// Shares, when set, holds a share for each of Cells, "" for none:
	// Markdown writes it after the count, "12 (3.45%)", HTML under it.
	Shares []string
	// Names are the robots of a row that stands for several, whose
	// Cells[0] names them all.
	Names []string
	Bar   []Seg
}

// Share returns the share of cell i, "" when it has none.
func (r Row) Share(i int) string {
	if i < len(r.Shares) {
		return r.Shares[i]
	}
	return ""
}

// NamesShown is how many names of a row for several robots the HTML
// shows before a "…" that opens on the list of all of them; a row of one
// more shows them all.
const NamesShown = 3

// Folded reports whether the HTML shows the row's names folded: the first
// NamesShown, and the whole list on demand.
func (r Row) Folded() bool { return len(r.Names) > NamesShown+1 }

// Short returns the folded names: "GPTBot, ClaudeBot, CCBot, …".
func (r Row) Short() string {
	var b strings.Builder
	for _, n := range r.Names[:min(len(r.Names), NamesShown)] {
		b.WriteString(Shown(n) + ", ")
	}
	b.WriteString("…")
	return b.String()
}

// Count says how many robots the row stands for: "(12 robots)".
func (r Row) Count() string { return fmt.Sprintf("(%d robots)", len(r.Names)) }

// List returns every name of the row, comma-separated.
func (r Row) List() string {
	shown := make([]string, len(r.Names))
	for i, n := range r.Names {
		shown[i] = Shown(n)
	}
	return strings.Join(shown, ", ")
}

// A Seg is one segment of a bar: Class picks its colour (one: a
// single share or the usable file; yes, part, no: open, partly, fully
// blocked; down: an outage), Width is its share of the bar's full width.
type Seg struct {
	Class, Name string
	Width       float64
}

// Style returns the segment's CSS width, from a number the report
// computed.
func (g Seg) Style() template.CSS {
	return template.CSS("width:" + strconv.FormatFloat(g.Width, 'f', 2, 64) + "%")
}

// MaxShown is how many characters of a key the report shows.
const MaxShown = 80

// Shown returns the text of a key as the report shows it: "(empty)" for
// "", at most MaxShown characters, control characters and invalid UTF-8
// as U+FFFD.
func Shown(s string) string {
	if s == "" {
		return "(empty)"
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		if n == MaxShown {
			b.WriteString("…")
			break
		}
		if unicode.IsControl(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// mdSpecial are the characters that mdText escapes with a backslash:
// those that could start or end Markdown markup inside a paragraph or a
// table cell.
const mdSpecial = "\\`*_[]<>|~&"

// MD returns text as GitHub-flavoured Markdown shows it literally:
// every character that could be markup after a backslash (CommonMark
// §2.4, https://spec.commonmark.org/0.31.2/#backslash-escapes), so that a
// value cannot break a table (a "|") or make a link. Keys reach it
// through Shown, without line ends.
func MD(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf && strings.ContainsRune(mdSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

var page = template.Must(template.New("report").Parse(pageHTML))

// pageHTML is the page of WriteHTML: html/template escapes every text,
// the bars' widths come from numbers (Seg.Style).
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --track: #eef0f4;
  --one: #3b6fd8; --part: #e59a2f; --yes: #4caf7a; --no: #c8504a; --down: #8c6bc8; }
@media (prefers-color-scheme: dark) { :root { --fg: #e3e6ec; --muted: #9aa3b2; --line: #39404d; --track: #2a303b; } }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); max-width: 90rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .3rem; }
h2 { font-size: 1.2rem; margin: 2.2rem 0 .4rem; }
p { margin: .3rem 0; max-width: 60rem; }
.note, .src, .more { color: var(--muted); font-size: .9rem; }
.lead { font-size: 1.05rem; }
nav a { margin-right: .8rem; }
table { border-collapse: collapse; margin-top: .6rem; font-variant-numeric: tabular-nums; }
th, td { padding: .25rem .6rem; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; max-width: 28rem; white-space: normal; overflow-wrap: break-word; }
th { font-weight: 600; border-bottom-width: 2px; vertical-align: bottom; }
.wrap { overflow-x: auto; background: linear-gradient(to right, Canvas 30%, transparent) left / 2rem 100% no-repeat local,
  linear-gradient(to left, Canvas 30%, transparent) right / 2rem 100% no-repeat local,
  radial-gradient(farthest-side at 0 50%, color-mix(in srgb, var(--fg) 22%, transparent), transparent) left / .7rem 100% no-repeat scroll,
  radial-gradient(farthest-side at 100% 50%, color-mix(in srgb, var(--fg) 22%, transparent), transparent) right / .7rem 100% no-repeat scroll; }
td.bar { width: 14rem; min-width: 7rem; }
table.grouped th, table.grouped td { white-space: normal; vertical-align: top; }
table.text th, table.text td { text-align: left; }
table.grouped thead th { vertical-align: bottom; }
table.grouped th:first-child, table.grouped td:first-child { min-width: 8rem; max-width: 16rem; }
table.grouped td.bar { width: 10rem; min-width: 6rem; padding-top: .55rem; }
tr.groups th { border-bottom-width: 1px; text-align: center; color: var(--muted); font-size: .85rem; }
th.gs, td.gs { border-left: 1px solid var(--line); }
td small { display: block; color: var(--muted); font-size: .8rem; }
summary { cursor: pointer; }
.nw { white-space: nowrap; }
details p { margin: .3rem 0 0; color: var(--muted); font-size: .85rem; }
.track { display: flex; height: .8rem; background: var(--track); border-radius: 2px; overflow: hidden; }
.track span, .key { display: inline-block; height: 100%; }
.key { width: .8rem; height: .8rem; vertical-align: middle; margin: 0 .3rem 0 .8rem; border-radius: 2px; }
.one { background: var(--one); } .part { background: var(--part); } .yes { background: var(--yes); } .no { background: var(--no); } .down { background: var(--down); }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="lead">{{.Lead}}</p>
<p class="note">{{.About}}</p>
<nav>{{range .Tables}}<a href="#{{.ID}}">{{.Title}}</a> {{end}}</nav>
{{range $t := .Tables}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
<p class="note">{{.Note}}</p>
{{- if .Sources}}
<p class="src">Sources: {{range $i, $l := .Sources}}{{if $i}}; {{end}}<a href="{{$l.URL}}">{{$l.Text}}</a>{{end}}.</p>
{{- end}}
{{- if .Legend}}
<p class="note">{{range .Legend}}<span class="key {{.Class}}"></span>{{.Name}}{{end}}</p>
{{- end}}
{{- if .Rows}}
<div class="wrap"><table{{if .Groups}} class="grouped"{{else if .Text}} class="text"{{end}}>
<thead>{{if .Groups}}<tr class="groups">{{range .Groups}}<th colspan="{{.Span}}"{{if .Name}} class="gs"{{end}}>{{.Name}}</th>{{end}}<th></th></tr>
{{end}}<tr>{{range $i, $c := .Cols}}<th{{with $t.ColClass $i}} class="{{.}}"{{end}}>{{$c}}</th>{{end}}{{if not $t.Text}}<th></th>{{end}}</tr></thead>
<tbody>
{{- range $r := .Rows}}
<tr>{{range $i, $c := .Cells}}<td{{with $t.ColClass $i}} class="{{.}}"{{end}}>
{{- if and (eq $i 0) $r.Folded}}<details><summary>{{$r.Short}} <span class="nw">{{$r.Count}}</span></summary><p>{{$r.List}}</p></details>
{{- else if and (eq $i 0) $r.Names}}{{$r.List}} <span class="nw">{{$r.Count}}</span>
{{- else}}{{$c}}{{with $r.Share $i}} <small>{{.}}</small>{{end}}{{end}}</td>{{end}}{{if not $t.Text}}<td class="bar"><div class="track">{{range .Bar}}<span class="{{.Class}}" style="{{.Style}}"{{if .Name}} title="{{.Name}}"{{end}}></span>{{end}}</div></td>{{end}}</tr>
{{- end}}
</tbody>
</table></div>
{{- if .Hidden}}
<p class="more">{{.Hidden}} more in the JSON form.</p>
{{- end}}
{{- else}}
<p>{{.Empty}}</p>
{{- end}}
</section>
{{end}}
</body>
</html>
`
