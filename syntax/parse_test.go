package syntax_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/lines"
	"github.com/robotskit/robots/syntax"
)

// dump renders a parsed file on one line, lines separated by " | ":
//
//	blank
//	comment("# x")
//	directive(disallow,"/x") comment("# c") +lenient +missing-colon
//	directive(unknown "Foo","bar")
//	invalid[no-separator] comment("# x") +nul
//
// Known fields are shown by their lower-case canonical name (the key's own
// spelling is then irrelevant); unknown keys are shown quoted.
func dump(f *syntax.File) string {
	parts := make([]string, len(f.Lines))
	for i := range f.Lines {
		parts[i] = dumpLine(f, &f.Lines[i])
	}
	return strings.Join(parts, " | ")
}

func dumpLine(f *syntax.File, l *syntax.Line) string {
	var out []string
	flags := l.Flags
	switch l.Kind {
	case syntax.BlankLine:
		out = append(out, "blank")
	case syntax.CommentLine:
		// The comment itself is shown below.
	case syntax.DirectiveLine:
		field := strings.ToLower(l.Field.String())
		if l.Field == syntax.Unknown {
			field = "unknown " + strconv.Quote(f.Text(l.Key))
		}
		out = append(out, fmt.Sprintf("directive(%s,%q)", field, f.Text(l.Value)))
	case syntax.InvalidLine:
		var why []string
		if flags&syntax.NoSeparator != 0 {
			why = append(why, "no-separator")
		}
		if flags&syntax.EmptyKey != 0 {
			why = append(why, "empty-key")
		}
		flags &^= syntax.NoSeparator | syntax.EmptyKey
		out = append(out, "invalid["+strings.Join(why, ",")+"]")
	default:
		out = append(out, fmt.Sprintf("kind(%d)", l.Kind))
	}
	if l.Comment.IsValid() {
		out = append(out, fmt.Sprintf("comment(%q)", f.Text(l.Comment)))
	}
	if l.Kind == syntax.CommentLine && !l.Comment.IsValid() {
		out = append(out, "comment(ABSENT)")
	}
	out = append(out, flagNames(flags)...)
	return strings.Join(out, " ")
}

var flagTable = []struct {
	f    syntax.Flags
	name string
}{
	{syntax.Lenient, "+lenient"},
	{syntax.MissingColon, "+missing-colon"},
	{syntax.TooLong, "+too-long"},
	{syntax.NUL, "+nul"},
	{syntax.InvalidUTF8, "+bad-utf8"},
	{syntax.NoSeparator, "+no-separator"},
	{syntax.EmptyKey, "+empty-key"},
}

func flagNames(fl syntax.Flags) []string {
	var s []string
	for _, e := range flagTable {
		if fl&e.f != 0 {
			s = append(s, e.name)
			fl &^= e.f
		}
	}
	if fl != 0 {
		s = append(s, fmt.Sprintf("+0x%x", uint16(fl)))
	}
	return s
}

// spanString renders a span as "off(line:col)-off(line:col)", or "-".
func spanString(s syntax.Span) string {
	if !s.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d(%d:%d)-%d(%d:%d)",
		s.Start.Offset, s.Start.Line, s.Start.Col, s.End.Offset, s.End.Line, s.End.Col)
}

// parseTests lists groups of inputs that must all parse to the same dump.
var parseTests = []struct {
	name   string
	inputs []string
	want   string
}{
	{"empty input", []string{""}, ""},
	{"blank", []string{" ", "\t", " \t\v\f ", "\v"}, "blank"},
	{"blank line terminated", []string{"\n", "  \n", "\t\r\n", "\r"}, "blank"},
	{"comment", []string{"# x", "  # x", "\t# x", "\v# x\n"}, `comment("# x")`},
	{"comment with colon", []string{"# Disallow: /x", " # Disallow: /x"}, `comment("# Disallow: /x")`},
	{"comment keeps trailing space", []string{"#x \t", "  #x \t"}, `comment("#x \t")`},
	{"empty comment", []string{"#", " #", "#\n"}, `comment("#")`},

	// Every field, canonical spelling and case variants.
	{"disallow", []string{
		"Disallow: /x", "disallow:/x", "  Disallow :  /x  ", "Disallow\t:\t/x",
		"DISALLOW: /x", "dIsAlLoW:/x", "\vDisallow\f:\v/x\f", "Disallow: /x\n", "Disallow: /x\r\n",
	}, `directive(disallow,"/x")`},
	{"user-agent", []string{
		"User-agent: Googlebot", "user-agent:Googlebot", "USER-AGENT :\tGooglebot", "User-Agent:  Googlebot  ",
	}, `directive(user-agent,"Googlebot")`},
	{"allow", []string{"Allow: /a", "allow:/a", "ALLOW : /a"}, `directive(allow,"/a")`},
	{"sitemap", []string{
		"Sitemap: https://example.com/s.xml", "sitemap:https://example.com/s.xml", "SITEMAP :  https://example.com/s.xml",
	}, `directive(sitemap,"https://example.com/s.xml")`},
	{"crawl-delay", []string{"Crawl-delay: 10", "crawl-DELAY:10", "CRAWL-DELAY : 10 "}, `directive(crawl-delay,"10")`},
	{"request-rate", []string{"Request-rate: 1/30", "request-rate:1/30"}, `directive(request-rate,"1/30")`},
	{"visit-time", []string{"Visit-time: 2300-0430", "visit-time:2300-0430", "VISIT-TIME\t:\t2300-0430"}, `directive(visit-time,"2300-0430")`},
	{"host", []string{"Host: example.com", "host:example.com", "HOST : example.com"}, `directive(host,"example.com")`},
	{"clean-param", []string{"Clean-param: ref /articles/", "clean-param:ref /articles/", "CLEAN-PARAM :  ref /articles/ "}, `directive(clean-param,"ref /articles/")`},
	{"robot-version", []string{"Robot-version: 2.0", "robot-version:2.0", "ROBOT-VERSION : 2.0"}, `directive(robot-version,"2.0")`},
	{"comment directive", []string{"Comment: hello world", "comment:hello world", "COMMENT :  hello world  "}, `directive(comment,"hello world")`},
	{"unknown key", []string{"Foo: bar", "Foo:bar", " Foo\t:\tbar "}, `directive(unknown "Foo","bar")`},
	{"unknown key noindex", []string{"noindex: /x", "noindex:/x"}, `directive(unknown "noindex","/x")`},
	// The extended fields are recognised by exact name only, not by prefix.
	{"extended field with suffix is unknown", []string{"Crawl-delays: 1", "Crawl-delays:1", " Crawl-delays : 1 "}, `directive(unknown "Crawl-delays","1")`},
	{"host with suffix is unknown", []string{"Hostname: x", "Hostname : x"}, `directive(unknown "Hostname","x")`},
	// A near-miss that is not in Google's typo list is Unknown, not Lenient.
	{"unlisted typo is unknown", []string{"Disalllow: /x", "  Disalllow\t: /x"}, `directive(unknown "Disalllow","/x")`},
	// grobotstxt-deviations.jsonl diaslow-typo: C++ does not accept "diaslow".
	{"diaslow is unknown", []string{"diaslow: /x", "diaslow : /x"}, `directive(unknown "diaslow","/x")`},
	{"unknown key with space", []string{"foo bar: baz", "foo bar:baz", " foo bar : baz "}, `directive(unknown "foo bar","baz")`},

	// Lenient: Google's typos and prefix extensions.
	{"user-agent typos", []string{
		"useragent: x", "UserAgent: x", "user agent: x", "User Agent :x", "User-agents: x", "user-agentfoo: x",
	}, `directive(user-agent,"x") +lenient`},
	{"disallow typos", []string{
		"dissallow: /x", "dissalow: /x", "disalow: /x", "diasllow: /x", "disallaw: /x",
		"DISALOW: /x", "Disallowed: /x", "disallows:/x", "Disallaws : /x",
	}, `directive(disallow,"/x") +lenient`},
	{"allow prefix", []string{"allowed: /x", "Allows: /x", "ALLOWANCE:/x"}, `directive(allow,"/x") +lenient`},
	{"sitemap typos", []string{"site-map: u", "Sitemaps: u", "SITE-MAP:u", "sitemap_index: u"}, `directive(sitemap,"u") +lenient`},
	// The key is everything before the first ':', so "Disallow /x" is a
	// (prefix-extended) Disallow key.
	{"colon after two words", []string{"Disallow /x:y", "Disallow /x : y"}, `directive(disallow,"y") +lenient`},

	// Missing colon: accepted when the line has exactly two words.
	{"missing colon", []string{
		"Disallow /x", "Disallow\t/x", "  disallow \t /x  ", "Disallow /x\n", "Disallow \t/x\r\n",
		// Only space and tab separate; \v after the separator is trimmed
		// from the value.
		"Disallow \v/x",
	}, `directive(disallow,"/x") +missing-colon`},
	{"missing colon user-agent", []string{"User-agent Googlebot", "user-agent\tGooglebot"}, `directive(user-agent,"Googlebot") +missing-colon`},
	{"missing colon typo", []string{"useragent Googlebot", "UserAgent  Googlebot"}, `directive(user-agent,"Googlebot") +lenient +missing-colon`},
	{"missing colon unknown", []string{"foo bar", "foo\tbar"}, `directive(unknown "foo","bar") +missing-colon`},
	{"missing colon with comment", []string{"Disallow /x # c", "Disallow /x# c", "Disallow\t/x\t# c"}, `directive(disallow,"/x") comment("# c") +missing-colon`},
	{"missing colon, three words", []string{
		"Disallow /x /y", "Disallow /x\t/y", "user agent Googlebot", "a b c", "  a b c  ",
	}, "invalid[no-separator]"},
	{"one word", []string{"Disallow", "/x", "foo", "  foo\t", "Disallow\n"}, "invalid[no-separator]"},
	// \v and \f are trimmed but do not separate words.
	{"vertical tab is no separator", []string{"Disallow\v/x", "Disallow\f/x"}, "invalid[no-separator]"},
	// Two words with a comment: google-other-cases.jsonl LinesNumbersAreCountedCorrectly
	// line 10 ("Error #and comment": has_comment, no directive).
	{"one word and comment", []string{"Error #and comment", "Error#and comment"}, `invalid[no-separator] comment("#and comment")`},

	// Empty key.
	{"empty key", []string{": x", " : x", ":", "\t:x", " :", ":x:y"}, "invalid[empty-key]"},
	{"empty key with comment", []string{": x # c", ":# c"}, `invalid[empty-key] comment("# c")`},

	// '#' starts a comment anywhere, also inside a value.
	{"hash in value", []string{"Disallow:/a#b", "Disallow: /a#b", "Disallow :/a  #b", "Disallow: /a\t#b"}, `directive(disallow,"/a") comment("#b")`},
	{"hash in key", []string{"Disa#llow: /x", "  Disa#llow: /x"}, `invalid[no-separator] comment("#llow: /x")`},
	{"value only a comment", []string{"Disallow: # nothing", "Disallow:# nothing", "Disallow :\t# nothing"}, `directive(disallow,"") comment("# nothing")`},
	{"empty value", []string{"Disallow:", "Disallow: ", "disallow :\t", "Disallow:\n", " Disallow : \r\n"}, `directive(disallow,"")`},
	{"colon in value", []string{"Disallow: /a:b", "Disallow:/a:b"}, `directive(disallow,"/a:b")`},
	{"inner spaces kept", []string{"Disallow: /a b", "Disallow:/a b "}, `directive(disallow,"/a b")`},
	// Only ASCII white space is trimmed (grobotstxt-deviations.jsonl
	// unicode-trim/nbsp-value).
	{"nbsp not trimmed", []string{"Disallow: /x\u00a0", "Disallow:/x\u00a0 "}, `directive(disallow,"/x\u00a0")`},
	{"ideographic space not trimmed", []string{"\u3000Disallow: /x", "\u3000Disallow:/x"}, `directive(unknown "\u3000Disallow","/x")`},

	// NUL ends what is read of a line (grobotstxt-deviations.jsonl nul-byte).
	{"nul in value", []string{"Disallow: /a\x00b", "Disallow: /a\x00", "Disallow: /a\x00#c", "Disallow: /a \x00 b: c"}, `directive(disallow,"/a") +nul`},
	{"nul at start", []string{"\x00Disallow: /x", " \x00#x"}, "blank +nul"},
	{"nul in key", []string{"Disallow\x00: /x", "Dis\x00allow: /x"}, "invalid[no-separator] +nul"},
	{"nul in comment", []string{"Disallow: /a #c\x00d", "Disallow:/a#c\x00\x00"}, `directive(disallow,"/a") comment("#c") +nul`},

	// Invalid UTF-8 is flagged by Parse, and kept.
	{"bad utf8", []string{"Disallow: /\xff", "Disallow:/\xff "}, `directive(disallow,"/\xff") +bad-utf8`},
	{"bad utf8 in comment", []string{"# \xc3", "  # \xc3", "# \xc3\n"}, `comment("# \xc3") +bad-utf8`},
	{"good utf8", []string{"Disallow: /ツ", "Disallow:/ツ"}, `directive(disallow,"/ツ")`},

	// BOM: a full or partial UTF-8 BOM at the start is skipped.
	{"bom", []string{
		"\xEF\xBB\xBFDisallow: /x", "\xEF\xBBDisallow: /x", "\xEFDisallow: /x", "\xEF\xBB\xBF  Disallow: /x\n",
	}, `directive(disallow,"/x")`},
	// Broken BOM EF 11 BF: only EF is skipped.
	{"broken bom", []string{"\xEF\x11\xBFDisallow: /x", "\xEF\x11\xBFDisallow : /x\n"}, `directive(unknown "\x11\xbfDisallow","/x") +bad-utf8`},
	// Only the first BOM; a second one is part of the key.
	{"double bom", []string{"\xEF\xBB\xBF\xEF\xBB\xBFDisallow: /x", "\xEF\xBB\xBF\xEF\xBB\xBFDisallow:/x\r\n"}, `directive(unknown "\ufeffDisallow","/x")`},
	{"bom not at start", []string{"\n\xEF\xBB\xBFDisallow: /x", "\r\n\xEF\xBB\xBFDisallow: /x"}, `blank | directive(unknown "\ufeffDisallow","/x")`},
	{"bom only", []string{"\xEF\xBB\xBF", "\xEF\xBB", "\xEF"}, ""},

	// Several lines, every terminator.
	{"group", []string{
		"User-agent: *\nDisallow: /\n", "User-agent: *\r\nDisallow: /\r\n", "User-agent: *\rDisallow: /\r",
		"User-agent: *\rDisallow: /\n", "User-agent: *\r\nDisallow: /", "User-agent: *\nDisallow: /",
	}, `directive(user-agent,"*") | directive(disallow,"/")`},
	{"blank line between", []string{"a: b\n\nc: d", "a: b\r\n\r\nc: d\r\n", "a: b\r\rc: d\r", "a: b\n\rc: d", "a: b\r\n\rc: d"},
		`directive(unknown "a","b") | blank | directive(unknown "c","d")`},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			for _, in := range tt.inputs {
				f := syntax.Parse("test.txt", []byte(in))
				if got := dump(f); got != tt.want {
					t.Errorf("Parse(%q):\ngot  %s\nwant %s", in, got, tt.want)
				}
				checkFile(t, []byte(in), f)
			}
		})
	}
}

// TestParseGoogleReport parses the file of reporting_robots_test.cc
// LinesNumbersAreCountedCorrectly (google-other-cases.jsonl, rows
// LinesNumbersAreCountedCorrectly#4..#19, copied by hand) and checks the
// per-line facts Google reports: tag, has_comment/is_comment/is_empty,
// is_acceptable_typo, is_missing_colon_separator. The 16th line Google
// reports is the empty text after the final newline, which is not a line
// here.
func TestParseGoogleReport(t *testing.T) {
	const src = "User-Agent: foo\nAllow: /some/path\nUser-Agent bar # no\nabsolutely random line\n#so comment, much wow\n\nunicorns: /extinct\nnoarchive: /some\nDisallow: /\nError #and comment\nuseragent: baz\ndisallaw: /some\nsite-map: https://e/s.xml #comment\nsitemap: https://e/t.xml\nNoarchive: /someCapital\n"
	want := []string{
		`directive(user-agent,"foo")`,
		`directive(allow,"/some/path")`,
		`directive(user-agent,"bar") comment("# no") +missing-colon`,
		`invalid[no-separator]`,
		`comment("#so comment, much wow")`,
		`blank`,
		`directive(unknown "unicorns","/extinct")`,
		`directive(unknown "noarchive","/some")`,
		`directive(disallow,"/")`,
		`invalid[no-separator] comment("#and comment")`,
		`directive(user-agent,"baz") +lenient`,
		`directive(disallow,"/some") +lenient`,
		`directive(sitemap,"https://e/s.xml") comment("#comment") +lenient`,
		`directive(sitemap,"https://e/t.xml")`,
		`directive(unknown "Noarchive","/someCapital")`,
	}
	f := syntax.Parse("", []byte(src))
	if len(f.Lines) != len(want) {
		t.Fatalf("got %d lines, want %d", len(f.Lines), len(want))
	}
	for i := range f.Lines {
		if got := dumpLine(f, &f.Lines[i]); got != want[i] {
			t.Errorf("line %d: got %s, want %s", i+1, got, want[i])
		}
		if got := f.Lines[i].Span.Start.Line; int(got) != i+1 {
			t.Errorf("line %d: Span.Start.Line = %d, want %d", i+1, got, i+1)
		}
	}
}

// lineShape is a line's span and terminator, for the terminator tests.
type lineShape struct {
	line, start, end, eol int
}

func TestParseLineTerminators(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []lineShape
	}{
		{"empty", "", nil},
		{"one line, no terminator", "a", []lineShape{{1, 0, 1, 0}}},
		{"LF", "a\n", []lineShape{{1, 0, 1, 1}}},
		{"CR", "a\r", []lineShape{{1, 0, 1, 1}}},
		{"CRLF", "a\r\n", []lineShape{{1, 0, 1, 2}}},
		{"LF only", "\n", []lineShape{{1, 0, 0, 1}}},
		{"CR only", "\r", []lineShape{{1, 0, 0, 1}}},
		{"CRLF only", "\r\n", []lineShape{{1, 0, 0, 2}}},
		{"LFLF", "\n\n", []lineShape{{1, 0, 0, 1}, {2, 1, 1, 1}}},
		{"CRCR", "\r\r", []lineShape{{1, 0, 0, 1}, {2, 1, 1, 1}}},
		// CR LF LF: the CRLF ends line 1, the LF ends line 2.
		{"CRLF LF", "\r\n\n", []lineShape{{1, 0, 0, 2}, {2, 2, 2, 1}}},
		// LF CR: two terminators, two lines (LFCR is not a pair).
		{"LF CR", "\n\r", []lineShape{{1, 0, 0, 1}, {2, 1, 1, 1}}},
		{"CR CRLF", "\r\r\n", []lineShape{{1, 0, 0, 1}, {2, 1, 1, 2}}},
		{"mixed", "a\nb\rc\r\nd", []lineShape{{1, 0, 1, 1}, {2, 2, 3, 1}, {3, 4, 5, 2}, {4, 7, 8, 0}}},
		{"mixed, final terminator", "ab\r\ncd\n\ref\r", []lineShape{{1, 0, 2, 2}, {2, 4, 6, 1}, {3, 7, 7, 1}, {4, 8, 10, 1}}},
		{"final line without terminator", "User-agent: *\nDisallow: /", []lineShape{{1, 0, 13, 1}, {2, 14, 25, 0}}},
		// reporting_robots_test.cc LinesNumbersAreCountedCorrectly, CRLF and
		// CR files (google-other-cases.jsonl #20-#23): 6 text lines, the
		// Disallow on line 6.
		{"google CRLF file", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
			[]lineShape{{1, 0, 15, 2}, {2, 17, 34, 2}, {3, 36, 51, 2}, {4, 53, 53, 2}, {5, 55, 55, 2}, {6, 57, 68, 2}}},
		{"google CR file", "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
			[]lineShape{{1, 0, 15, 1}, {2, 16, 33, 1}, {3, 34, 49, 1}, {4, 50, 50, 1}, {5, 51, 51, 1}, {6, 52, 63, 1}}},
		{"bom and CRLF", "\xEF\xBB\xBF\r\nx", []lineShape{{1, 3, 3, 2}, {2, 5, 6, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := syntax.Parse("", []byte(tt.in))
			var got []lineShape
			for _, l := range f.Lines {
				if l.Span.Start.Line != l.Span.End.Line {
					t.Errorf("line %d: span covers lines %d-%d", l.Span.Start.Line, l.Span.Start.Line, l.Span.End.Line)
				}
				got = append(got, lineShape{int(l.Span.Start.Line), l.Span.Start.Offset, l.Span.End.Offset, l.EOL})
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Parse(%q) lines {line start end eol}:\ngot  %v\nwant %v", tt.in, got, tt.want)
			}
			checkFile(t, []byte(tt.in), f)
		})
	}
}

func TestParseBOM(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		bom      string
		lines    int
		text     string // text of line 1
		off, col int    // start of line 1
	}{
		{"full", "\xEF\xBB\xBFab", "\xEF\xBB\xBF", 1, "ab", 3, 1},
		{"partial EF BB", "\xEF\xBBab", "\xEF\xBB", 1, "ab", 2, 1},
		{"partial EF", "\xEFab", "\xEF", 1, "ab", 1, 1},
		{"broken EF 11 BF", "\xEF\x11\xBFab", "\xEF", 1, "\x11\xBFab", 1, 1},
		{"broken EF BB EF", "\xEF\xBB\xEFab", "\xEF\xBB", 1, "\xEFab", 2, 1},
		{"BB BF is no bom", "\xBB\xBFab", "", 1, "\xBB\xBFab", 0, 1},
		{"not at start", "a\xEF\xBB\xBF", "", 1, "a\xEF\xBB\xBF", 0, 1},
		{"twice", "\xEF\xBB\xBF\xEF\xBB\xBFa", "\xEF\xBB\xBF", 1, "\xEF\xBB\xBFa", 3, 1},
		{"bom only", "\xEF\xBB\xBF", "\xEF\xBB\xBF", 0, "", 0, 0},
		{"bom and LF", "\xEF\xBB\xBF\n", "\xEF\xBB\xBF", 1, "", 3, 1},
		{"partial bom and CR", "\xEF\xBB\r", "\xEF\xBB", 1, "", 2, 1},
		{"no bom", "ab", "", 1, "ab", 0, 1},
		{"empty", "", "", 0, "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := syntax.Parse("", []byte(tt.in))
			if f.BOM != tt.bom {
				t.Errorf("BOM: got %q, want %q", f.BOM, tt.bom)
			}
			var s lines.Scanner
			if got := s.Init(tt.in); got != tt.bom {
				t.Errorf("Scanner.Init: got %q, want %q", got, tt.bom)
			}
			if len(f.Lines) != tt.lines {
				t.Fatalf("got %d lines, want %d", len(f.Lines), tt.lines)
			}
			if tt.lines == 0 {
				return
			}
			l := f.Lines[0]
			if got := f.Text(l.Span); got != tt.text {
				t.Errorf("line 1 text: got %q, want %q", got, tt.text)
			}
			if l.Span.Start.Offset != tt.off || int(l.Span.Start.Col) != tt.col || l.Span.Start.Line != 1 {
				t.Errorf("line 1 start: got %+v, want offset %d line 1 col %d", l.Span.Start, tt.off, tt.col)
			}
			checkFile(t, []byte(tt.in), f)
		})
	}
}

// TestParseBOMPositions checks that the column after a BOM is 1 while its
// offset counts the BOM, for the line and its key, value and comment.
func TestParseBOMPositions(t *testing.T) {
	f := syntax.Parse("", []byte("\xEF\xBB\xBFDisallow: /x #c\nAllow: /y"))
	l := f.Lines[0]
	for _, c := range []struct {
		what string
		got  syntax.Span
		want string
	}{
		{"line 1", l.Span, "3(1:1)-18(1:16)"},
		{"key", l.Key, "3(1:1)-11(1:9)"},
		{"value", l.Value, "13(1:11)-15(1:13)"},
		{"comment", l.Comment, "16(1:14)-18(1:16)"},
		{"line 2", f.Lines[1].Span, "19(2:1)-28(2:10)"},
	} {
		if got := spanString(c.got); got != c.want {
			t.Errorf("%s: got %s, want %s", c.what, got, c.want)
		}
	}
}

func TestParsePositions(t *testing.T) {
	// BOM; LF; CRLF; CR; no terminator.
	const src = "\xEF\xBB\xBFUser-agent: Googlebot # hi\n  Disallow :\t/x\r\n#c\rAllow /y"
	f := syntax.Parse("robots.txt", []byte(src))
	want := []struct {
		span, key, value, comment string
		eol                       int
	}{
		{"3(1:1)-29(1:27)", "3(1:1)-13(1:11)", "15(1:13)-24(1:22)", "25(1:23)-29(1:27)", 1},
		{"30(2:1)-45(2:16)", "32(2:3)-40(2:11)", "43(2:14)-45(2:16)", "-", 2},
		{"47(3:1)-49(3:3)", "-", "-", "47(3:1)-49(3:3)", 1},
		{"50(4:1)-58(4:9)", "50(4:1)-55(4:6)", "56(4:7)-58(4:9)", "-", 0},
	}
	if len(f.Lines) != len(want) {
		t.Fatalf("got %d lines, want %d", len(f.Lines), len(want))
	}
	for i, w := range want {
		l := f.Lines[i]
		for _, c := range []struct {
			what      string
			got, want string
		}{
			{"Span", spanString(l.Span), w.span},
			{"Key", spanString(l.Key), w.key},
			{"Value", spanString(l.Value), w.value},
			{"Comment", spanString(l.Comment), w.comment},
		} {
			if c.got != c.want {
				t.Errorf("line %d %s: got %s, want %s", i+1, c.what, c.got, c.want)
			}
		}
		if l.EOL != w.eol {
			t.Errorf("line %d EOL: got %d, want %d", i+1, l.EOL, w.eol)
		}
	}
	if got, want := f.Text(f.Lines[0].Value), "Googlebot"; got != want {
		t.Errorf("Text(value 1): got %q, want %q", got, want)
	}
	if got, want := f.Text(f.Lines[0].Comment), "# hi"; got != want {
		t.Errorf("Text(comment 1): got %q, want %q", got, want)
	}
	if got, want := f.Lines[1].Value.Len(), 2; got != want {
		t.Errorf("Value.Len line 2: got %d, want %d", got, want)
	}
	if got, want := f.Lines[1].Key.Start.String(), "2:3"; got != want {
		t.Errorf("Pos.String: got %q, want %q", got, want)
	}
	if got, want := f.Lines[2].Key.Start.String(), "-"; got != want {
		t.Errorf("invalid Pos.String: got %q, want %q", got, want)
	}
	if got := f.Text(syntax.Span{}); got != "" {
		t.Errorf("Text(zero span): got %q, want empty", got)
	}
	if f.Name != "robots.txt" {
		t.Errorf("Name: got %q, want %q", f.Name, "robots.txt")
	}
	if f.Lines[3].Flags != syntax.MissingColon || f.Lines[3].Field != syntax.Allow {
		t.Errorf("line 4: got %s, want Allow +missing-colon", dumpLine(f, &f.Lines[3]))
	}
}

func TestParseEmptyValuePosition(t *testing.T) {
	// An empty value is present (valid) and empty, placed right after the
	// ':' (trailing white space is outside the line's trimmed text).
	f := syntax.Parse("", []byte("Disallow: \nAllow:"))
	for i, want := range []string{"9(1:10)-9(1:10)", "17(2:7)-17(2:7)"} {
		v := f.Lines[i].Value
		if !v.IsValid() {
			t.Errorf("line %d: empty value is absent, want present", i+1)
		}
		if got := spanString(v); got != want {
			t.Errorf("line %d value: got %s, want %s", i+1, got, want)
		}
	}
}

func TestParseTooLong(t *testing.T) {
	const max = syntax.MaxLineLen
	if max != 16663 {
		t.Fatalf("MaxLineLen = %d, want 16663 (2083*8-1)", max)
	}
	line := func(n int) string { // a Disallow line of n bytes
		return "Disallow: /" + strings.Repeat("a", n-len("Disallow: /"))
	}
	tests := []struct {
		name     string
		in       string
		tooLong  bool
		valueLen int // length of the value read
		comment  string
	}{
		{"exactly max", line(max), false, max - 10, ""},
		{"max+1", line(max + 1), true, max - 10, ""},
		{"max+1000", line(max + 1000), true, max - 10, ""},
		{"max, CRLF", line(max) + "\r\n", false, max - 10, ""},
		{"max+1, LF", line(max+1) + "\n", true, max - 10, ""},
		{"comment past the cut", line(max) + "#c", true, max - 10, ""},
		{"comment across the cut", line(max-2) + "#cdef", true, max - 12, "#c"},
		{"trailing space cut", line(max-3) + "    /b", true, max - 13, ""},
		{"bom not counted", "\xEF\xBB\xBF" + line(max), false, max - 10, ""},
		{"bom not counted, max+1", "\xEF\xBB\xBF" + line(max+1), true, max - 10, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := syntax.Parse("", []byte(tt.in))
			if len(f.Lines) != 1 {
				t.Fatalf("got %d lines, want 1", len(f.Lines))
			}
			l := f.Lines[0]
			if got := l.Flags&syntax.TooLong != 0; got != tt.tooLong {
				t.Errorf("TooLong: got %v, want %v", got, tt.tooLong)
			}
			if l.Kind != syntax.DirectiveLine || l.Field != syntax.Disallow {
				t.Fatalf("got kind %v field %v, want directive Disallow", l.Kind, l.Field)
			}
			if got := l.Value.Len(); got != tt.valueLen {
				t.Errorf("value length: got %d, want %d", got, tt.valueLen)
			}
			// The value is a prefix of the line's text, cut at max bytes.
			text := f.Text(l.Span)
			if got, want := f.Text(l.Value), text[10:10+tt.valueLen]; got != want {
				t.Errorf("value is not text[10:%d]", 10+tt.valueLen)
			}
			if l.Value.End.Offset-l.Span.Start.Offset > max {
				t.Errorf("value ends at line byte %d, past the cut %d", l.Value.End.Offset-l.Span.Start.Offset, max)
			}
			if got := f.Text(l.Comment); got != tt.comment {
				t.Errorf("comment: got %q, want %q", got, tt.comment)
			}
			// The span still covers the whole line.
			wantLen := len(strings.TrimRight(strings.TrimPrefix(tt.in, "\xEF\xBB\xBF"), "\r\n"))
			if got := l.Span.Len(); got != wantLen {
				t.Errorf("span length: got %d, want %d", got, wantLen)
			}
			checkFile(t, []byte(tt.in), f)
		})
	}
}

// TestParseTooLongGoogle is reporting_robots_test.cc LinesTooLongReportedCorrectly
// (google-other-cases.jsonl LinesTooLongReportedCorrectly#4-#6): line 2 is
// 16682 bytes and too long, lines 1 and 3 are not; all three are directives.
func TestParseTooLongGoogle(t *testing.T) {
	src := "user-agent: foo\ndisallow: /x/" + strings.Repeat("a", 16682-len("disallow: /x/")) + "\nallow: /\n"
	f := syntax.Parse("", []byte(src))
	want := []string{
		`directive(user-agent,"foo")`,
		`directive(disallow,"/x/` + strings.Repeat("a", syntax.MaxLineLen-len("disallow: /x/")) + `") +too-long`,
		`directive(allow,"/")`,
	}
	if len(f.Lines) != len(want) {
		t.Fatalf("got %d lines, want %d", len(f.Lines), len(want))
	}
	for i := range want {
		if got := dumpLine(f, &f.Lines[i]); got != want[i] {
			if len(got) > 80 {
				got = got[:40] + "…" + got[len(got)-40:]
			}
			t.Errorf("line %d: got %s", i+1, got)
		}
	}
}

func TestLookupField(t *testing.T) {
	for f := syntax.UserAgent; f <= syntax.Comment; f++ {
		name := f.String()
		for _, k := range []string{name, strings.ToLower(name), strings.ToUpper(name)} {
			if got := lines.LookupField(k); got != f {
				t.Errorf("lines.LookupField(%q): got %v, want %v", k, got, f)
			}
		}
		// Parse agrees with lines.LookupField on the canonical names.
		p := syntax.Parse("", []byte(name+": v"))
		if got := p.Lines[0].Field; got != f || p.Lines[0].Flags != 0 {
			t.Errorf("Parse(%q): got field %v flags %v, want %v, no flags", name+": v", got, p.Lines[0].Flags, f)
		}
	}
	for _, k := range []string{"", "useragent", "user agent", "disalow", "Disallowed", "sitemaps", "foo",
		"Ho\u017Ft", "\u017Fitemap", // long s folds to 's' under Unicode, not ASCII, case folding
	} {
		if got := lines.LookupField(k); got != lines.Unknown {
			t.Errorf("lines.LookupField(%q): got %v, want Unknown", k, got)
		}
	}
	if got := syntax.Unknown.String(); got != "" {
		t.Errorf("Unknown.String(): got %q, want empty", got)
	}
	if got := syntax.Field(200).String(); got != "" {
		t.Errorf("Field(200).String(): got %q, want empty", got)
	}
}

// TestParseNonASCIIKey checks that keys differing from a field name only by
// Unicode case folding are not recognised.
func TestParseNonASCIIKey(t *testing.T) {
	for _, in := range []string{"Ho\u017Ft: x", "\u017Fitemap: x", "Di\u017Fallow: x"} { // long s
		f := syntax.Parse("", []byte(in))
		if got := f.Lines[0].Field; got != syntax.Unknown {
			t.Errorf("Parse(%q): got field %v, want Unknown", in, got)
		}
	}
}

func TestLineKindString(t *testing.T) {
	for k, want := range map[syntax.LineKind]string{
		syntax.BlankLine: "blank", syntax.CommentLine: "comment", syntax.DirectiveLine: "directive",
		syntax.InvalidLine: "invalid", 0: "LineKind(?)", 99: "LineKind(?)",
	} {
		if got := k.String(); got != want {
			t.Errorf("LineKind(%d).String(): got %q, want %q", k, got, want)
		}
	}
}

// TestScannerMatchesParse runs the Scanner of package lines directly over
// every table input and checks it yields Parse's lines, without InvalidUTF8.
func TestScannerMatchesParse(t *testing.T) {
	for _, in := range allInputs() {
		compareScanner(t, in, syntax.Parse("", []byte(in)))
	}
}

// TestParseLineMatchesParse checks that package lines' ParseLine reads every
// line of every table input as Parse does.
func TestParseLineMatchesParse(t *testing.T) {
	for _, in := range allInputs() {
		compareParseLine(t, syntax.Parse("", []byte(in)))
	}
}
