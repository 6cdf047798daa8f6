package pattern_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/pattern"
)

// refMatch is RFC 9309 §2.2.3 matching written as a textbook dynamic
// programme, independent of Match's greedy search: reach[j] says whether the
// pattern read so far matches path[:j] exactly. '*' matches any sequence of
// octets, a final '$' requires the match to end at the end of the path, and
// otherwise the pattern must match some prefix of the path. Every other
// octet, '$' included, matches itself.
func refMatch(path, pat string) bool {
	anchored := len(pat) > 0 && pat[len(pat)-1] == '$'
	if anchored {
		pat = pat[:len(pat)-1]
	}
	reach := make([]bool, len(path)+1)
	reach[0] = true
	next := make([]bool, len(path)+1)
	for i := 0; i < len(pat); i++ {
		for j := 0; j <= len(path); j++ {
			if pat[i] == '*' {
				// Either '*' matches nothing, or it matches path[j-1] too.
				next[j] = reach[j] || j > 0 && next[j-1]
			} else {
				next[j] = j > 0 && reach[j-1] && path[j-1] == pat[i]
			}
		}
		reach, next = next, reach
	}
	if anchored {
		return reach[len(path)]
	}
	for _, ok := range reach {
		if ok {
			return true
		}
	}
	return false
}

// refMatchRec is the same definition as plain backtracking; it is exponential
// and used only on tiny inputs, to check refMatch itself.
func refMatchRec(path, pat string) bool {
	if pat == "" {
		return true // the rest of the path is not matched: prefix match
	}
	if pat == "$" {
		return path == ""
	}
	if pat[0] == '*' {
		for i := 0; i <= len(path); i++ {
			if refMatchRec(path[i:], pat[1:]) {
				return true
			}
		}
		return false
	}
	return path != "" && path[0] == pat[0] && refMatchRec(path[1:], pat[1:])
}

var matchTests = []struct {
	path, pat string
	want      bool
}{
	// Prefix match.
	{"/", "/", true},
	{"/a", "/", true},
	{"", "/", false},
	{"/fish", "/fish", true},
	{"/fish.html", "/fish", true},
	{"/fish/salmon.html", "/fish", true},
	{"/fishheads/yummy.html", "/fish", true},
	{"/Fish.asp", "/fish", false}, // case-sensitive
	{"/catfish", "/fish", false},
	{"/fis", "/fish", false},
	{"/fish/", "/fish/", true},
	{"/fish", "/fish/", false},
	{"/ツ", "/%E3%83%84", false}, // octets, no decoding
	// Empty pattern matches everything.
	{"", "", true},
	{"/", "", true},
	{"/anything?x=1", "", true},
	// '*' anywhere.
	{"", "*", true},
	{"/", "*", true},
	{"/fish", "/fish*", true},
	{"/fish.html", "/fish*", true},
	{"/fish", "*fish", true},
	{"/catfish", "*fish", true},
	{"/cat", "*fish", false},
	{"/a/b/c", "/*/c", true},
	{"/a/c", "/*/c", true},
	{"/c", "/*/c", false},
	{"/filename.php", "/*.php", true},
	{"/folder/filename.php?parameters", "/*.php", true},
	{"/folder/any.php.file.html", "/*.php", true},
	{"/filename.php/", "/*.php", true},
	{"/", "/*.php", false},
	{"/windows.PHP", "/*.php", false},
	{"/x.ph", "/*.php", false},
	// Several '*'.
	{"/a1b2c", "/a*b*c", true},
	{"/abc", "/a*b*c", true},
	{"/acb", "/a*b*c", false},
	{"/abcabc", "/a*c*b", true},
	{"/abc", "/a*bc*c", false},
	{"/abcc", "/a*bc*c", true},
	{"/fish/salmon", "/*sh*mo*", true},
	{"/aaa", "/*a*a*a", true},
	{"/aa", "/*a*a*a", false},
	{"/ab", "*a*b*", true},
	{"/ba", "*a*b*", false},
	// "**" is "*".
	{"/ab", "/**b", true},
	{"/a", "/a**", true},
	{"/b", "/**a", false},
	{"", "**", true},
	{"/ab", "/a***b", true},
	// '$' at the end anchors.
	{"/filename.php", "/*.php$", true},
	{"/folder/filename.php", "/*.php$", true},
	{"/filename.php?parameters", "/*.php$", false},
	{"/filename.php/", "/*.php$", false},
	{"/filename.php5", "/*.php$", false},
	{"/windows.PHP", "/*.php$", false},
	{"/fish", "/fish$", true},
	{"/fishes", "/fish$", false},
	{"/fis", "/fish$", false},
	{"/abab", "/*ab$", true},
	{"/aab", "/*ab$", true},
	{"/aba", "/*ab$", false},
	{"/aXbXab", "/a*b$", true},
	{"/aXbXa", "/a*b$", false},
	{"/aa", "/*a*a$", true},
	{"/a", "/*a*a$", false},
	{"/aaa", "*aa$", true},
	// A '$' that is not last is an ordinary octet.
	{"/a$b", "/a$b", true},
	{"/ab", "/a$b", false},
	{"/a$", "/a$$", true},
	{"/a$x", "/a$$", false},
	{"/a", "/a$$", false},
	{"/a$", "/a$", false},
	{"/a$x", "/a$*", true},
	{"/a", "/a$*", false},
	{"/$/", "/$/", true},
	{"/x$", "*$$", true},
	{"/x", "*$$", false},
	// "$" matches only the empty path.
	{"", "$", true},
	{"/", "$", false},
	{"a", "$", false},
	// "*$" matches everything.
	{"", "*$", true},
	{"/anything", "*$", true},
	{"/", "**$", true},
	// Pattern longer than the path.
	{"/a", "/abc", false},
	{"/a", "/a*bc", false},
	{"/ab", "/abc$", false},
	{"/ab", "/ab*c$", false},
	{"", "/", false},
	{"", "a*", false},
	{"", "*a", false},
	// '*' and '$' in the path are ordinary octets.
	{"/a*b", "/a*b", true},
	{"/a*b$", "/a*b$", false},
	{"/a*b$", "/a*b$*", true},
	{"/$", "/$", false},
	{"/$", "/*$", true},
}

func TestMatch(t *testing.T) {
	for _, tt := range matchTests {
		if got := pattern.Match(tt.path, tt.pat); got != tt.want {
			t.Errorf("Match(%q, %q): got %v, want %v", tt.path, tt.pat, got, tt.want)
		}
		// The table doubles as a test of the references.
		if got := refMatch(tt.path, tt.pat); got != tt.want {
			t.Errorf("refMatch(%q, %q): got %v, want %v (the reference is wrong)", tt.path, tt.pat, got, tt.want)
		}
		if got := refMatchRec(tt.path, tt.pat); got != tt.want {
			t.Errorf("refMatchRec(%q, %q): got %v, want %v (the reference is wrong)", tt.path, tt.pat, got, tt.want)
		}
	}
}

// TestMatchRandom compares Match with refMatch on random small inputs over
// a tiny alphabet, where every shape of '*' and '$' comes up.
func TestMatchRandom(t *testing.T) {
	const alphabet = "ab/*$"
	rng := rand.New(rand.NewPCG(9309, 1))
	word := func(max int) string {
		b := make([]byte, rng.IntN(max+1))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	n := 200000
	if testing.Short() {
		n = 20000
	}
	fails := 0
	for i := 0; i < n; i++ {
		path, pat := word(8), word(8)
		want := refMatch(path, pat)
		if i%8 == 0 {
			if rec := refMatchRec(path, pat); rec != want {
				t.Fatalf("refMatch(%q, %q) = %v, refMatchRec = %v: the references disagree", path, pat, want, rec)
			}
		}
		if got := pattern.Match(path, pat); got != want {
			t.Errorf("Match(%q, %q): got %v, want %v", path, pat, got, want)
			if fails++; fails > 20 {
				t.Fatal("too many failures")
			}
		}
	}
}

// matchSeeds are extra wildcard-heavy seeds for FuzzMatch.
var matchSeeds = []struct{ path, pat string }{
	{"/aaaaaaaaab", "/*a*a*a*a*b"},
	{"/aaaaaaaaaa", "/*a*a*a*a*b"},
	{"/abababab", "*ab*ab*ab$"},
	{"/abababa", "*ab*ab*ab$"},
	{"/a$b$", "/*$*$"},
	{"/a$b$", "/*$*$$"},
	{"/xyz", "***$"},
	{"/aab", "*aab*"},
	{"/a/b/c/d.php", "/*/*/*.php$"},
	{"$$$", "$$$$"},
	{"*", "\\*"},
	{"/\x00\xff", "/*\xff$"},
}

func FuzzMatch(f *testing.F) {
	for _, tt := range matchTests {
		f.Add(tt.path, tt.pat)
	}
	for _, s := range matchSeeds {
		f.Add(s.path, s.pat)
	}
	f.Fuzz(func(t *testing.T, path, pat string) {
		if len(path)*len(pat) > 1<<20 {
			t.Skip("too large for the reference")
		}
		if got, want := pattern.Match(path, pat), refMatch(path, pat); got != want {
			t.Errorf("Match(%q, %q): got %v, want %v", path, pat, got, want)
		}
	})
}

// worstCase is an adversarial input with its known answer; worstCases(n)
// builds every shape with paths and patterns of about n octets.
type worstCase struct {
	name      string
	path, pat string
	want      bool
}

func worstCases(n int) []worstCase {
	as := strings.Repeat("a", n-1)
	starA := strings.Repeat("*a", (n-3)/2)
	return []worstCase{
		// Many one-octet segments, then one that is never found.
		{"/*a*a…*b vs a…", "/" + as, "/" + starA + "*b", false},
		{"/*a*a…*b vs a…b", "/" + as[1:] + "b", "/" + starA + "*b", true},
		// One long segment that almost matches everywhere.
		{"*aaa…ab vs a…", as + "a", "*" + as[:n-2] + "b", false},
		{"*aaa…ab vs a…ab", as + "b", "*" + as[:n-2] + "b", true},
		{"*aaa…ab$ vs a…ab", as + "b", "*" + as[:n-2] + "b$", true},
		{"*aaa…a$ vs a…", as + "a", "*" + as[:n-2] + "$", true},
		// Anchored: the last segment must end the path.
		{"/*a*a…*a$ vs a…", "/" + as, "/" + starA + "$", true},
		{"/*a*a…*b$ vs a…", "/" + as, "/" + starA + "*b$", false},
		{"/*a*a…*b$ vs a…ba", "/" + as[2:] + "ba", "/" + starA + "*b$", false},
		// More segments than the path has a's.
		{"/*a×(n/2) vs a×(n/2-1)", "/" + as[:n/2-1], "/" + strings.Repeat("*a", n/2), false},
		{"/*a×(n/2) vs a×(n/2)", "/" + as[:n/2], "/" + strings.Repeat("*a", n/2), true},
		// Segments of length 100 that each fail at their last octet but one.
		{"(*a^99b)… vs a…", as, strings.Repeat("*"+as[:99]+"b", n/100), false},
		{"(*a^99b)… vs (a^99b)…", strings.Repeat(as[:99]+"b", n/100), strings.Repeat("*"+as[:99]+"b", n/100), true},
		// Segments of 63 octets, the longest strings.Index searches by
		// brute force on amd64.
		{"(*a^62b)… vs a…", as, strings.Repeat("*"+as[:62]+"b", n/64), false},
		{"a^62b vs a…b (unanchored tail)", as[:n-2] + "b", "*" + as[:62] + "b", true},
		// A literal '$' in every segment.
		{"/*$*$…*$$ vs $…", "/" + strings.Repeat("$", n-1), "/" + strings.Repeat("*$", (n-3)/2) + "$", true},
		{"/*$*$…*$$ vs a…", "/" + as, "/" + strings.Repeat("*$", (n-3)/2) + "$", false},
	}
}

func TestMatchWorstCase(t *testing.T) {
	for _, c := range worstCases(16 << 10) {
		t.Run(c.name, func(t *testing.T) {
			if got := pattern.Match(c.path, c.pat); got != c.want {
				t.Errorf("Match: got %v, want %v", got, c.want)
			}
			allocs := testing.AllocsPerRun(5, func() { pattern.Match(c.path, c.pat) })
			if allocs != 0 {
				t.Errorf("Match allocates %v times, want 0", allocs)
			}
		})
	}
	// The same shapes at 1 KiB, where the reference is fast enough.
	for _, c := range worstCases(1 << 10) {
		t.Run("1KiB "+c.name, func(t *testing.T) {
			if ref := refMatch(c.path, c.pat); ref != c.want {
				t.Fatalf("refMatch: got %v, want %v (the known answer is wrong)", ref, c.want)
			}
			if got := pattern.Match(c.path, c.pat); got != c.want {
				t.Errorf("Match: got %v, want %v", got, c.want)
			}
		})
	}
}

func TestMatchAllocs(t *testing.T) {
	for _, tt := range matchTests {
		if a := testing.AllocsPerRun(5, func() { pattern.Match(tt.path, tt.pat) }); a != 0 {
			t.Errorf("Match(%q, %q) allocates %v times, want 0", tt.path, tt.pat, a)
		}
	}
}

func BenchmarkMatchWorstCase(b *testing.B) {
	for _, c := range worstCases(16 << 10) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.path)))
			for b.Loop() {
				pattern.Match(c.path, c.pat)
			}
		})
	}
}

// googleTests are AppendGoogle cases: input, output.
var googleTests = []struct{ in, want string }{
	// google-other-cases.jsonl escape_pattern (robots_test.cc
	// TestMaybeEscapePattern#1-#4), copied by hand.
	{"http://www.example.com", "http://www.example.com"},
	{"/a/b/c", "/a/b/c"},
	{"á", "%C3%A1"},
	{"%aa", "%AA"},
	// Hex digits of escapes are upper-cased, digits are kept.
	{"%aB", "%AB"},
	{"%2f", "%2F"},
	{"%3a", "%3A"},
	{"%c3", "%C3"},
	{"%31", "%31"},
	{"/%e3%83%84", "/%E3%83%84"},
	{"%C3%a1", "%C3%A1"},
	{"%%aa", "%%AA"},
	// A '%' not followed by two hex digits is left alone.
	{"%", "%"},
	{"%4", "%4"},
	{"100%", "100%"},
	{"%g1", "%g1"},
	{"%4g", "%4g"},
	{"%zz", "%zz"},
	{"%%", "%%"},
	{"%a%", "%a%"},
	// Octets ≥ 0x80 are escaped, upper-case.
	{"\x80", "%80"},
	{"\xff", "%FF"},
	{"/ツ", "/%E3%83%84"},
	{"%\xff", "%%FF"},
	{"%e\xff", "%e%FF"},
	{"%\xc3\xa1", "%%C3%A1"},
	// Nothing is decoded; ASCII is kept as is.
	{"%7E", "%7E"},
	{"%41", "%41"},
	{"/*.php$", "/*.php$"},
	{"/a b\t\x00\x7f", "/a b\t\x00\x7f"},
	{"", ""},
}

func TestAppendGoogle(t *testing.T) {
	for _, tt := range googleTests {
		if got := string(pattern.AppendGoogle(nil, tt.in)); got != tt.want {
			t.Errorf("AppendGoogle(nil, %q): got %q, want %q", tt.in, got, tt.want)
		}
		if got := string(pattern.AppendGoogle([]byte("x:"), tt.in)); got != "x:"+tt.want {
			t.Errorf("AppendGoogle(\"x:\", %q): got %q, want %q", tt.in, got, "x:"+tt.want)
		}
		if got, want := pattern.NeedsGoogle(tt.in), tt.in != tt.want; got != want {
			t.Errorf("NeedsGoogle(%q): got %v, want %v", tt.in, got, want)
		}
	}
}

// rfcTests are AppendRFC cases: input and the output on each side.
var rfcTests = []struct{ in, rule, path string }{
	// Escapes of unreserved characters are decoded (RFC 9309 §2.2.2 fig. 4
	// last row: /foo/bar/%62%61%7A matches as /foo/bar/baz).
	{"/%62%61%7A", "/baz", "/baz"},
	{"/foo/bar/%62%61%7A", "/foo/bar/baz", "/foo/bar/baz"},
	{"/%7e", "/~", "/~"},
	{"/%7Ejoe/index.html", "/~joe/index.html", "/~joe/index.html"},
	{"/%41%5a%30%39%2D%2e%5F", "/AZ09-._", "/AZ09-._"},
	// ':' and '@' are decoded everywhere.
	{"/%3A", "/:", "/:"},
	{"/%3a%40", "/:@", "/:@"},
	// '/' and '?' only inside the query.
	{"/a%2fb", "/a%2Fb", "/a%2Fb"},
	{"/a%2Fb", "/a%2Fb", "/a%2Fb"},
	{"/a?b%2fc", "/a?b/c", "/a?b/c"},
	{"/a%3Fb?c%3fd", "/a%3Fb?c?d", "/a%3Fb?c?d"},
	// RFC 9309 fig. 4, second row: equal to its unencoded form.
	{"/foo/bar?baz=https%3A%2F%2Ffoo.bar", "/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https://foo.bar"},
	{"/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https://foo.bar"},
	// Other escapes keep their meaning, upper-cased.
	{"/%e3%83%84", "/%E3%83%84", "/%E3%83%84"},
	{"/%3b%26%3d", "/%3B%26%3D", "/%3B%26%3D"},
	{"/%25", "/%25", "/%25"},
	{"/%2541", "/%2541", "/%2541"},
	{"/%20", "/%20", "/%20"},
	// '*' and '$': operators in a rule, octets in a path.
	{"/a*b$", "/a*b$", "/a%2Ab%24"},
	{"*", "*", "%2A"},
	{"$", "$", "%24"},
	{"/%2a%24", "/%2A%24", "/%2A%24"},
	// Characters never allowed raw are encoded.
	{"/a b", "/a%20b", "/a%20b"},
	{"/a\tb\x00\x1f\x7f", "/a%09b%00%1F%7F", "/a%09b%00%1F%7F"},
	{"/\"<>\\^`{|}", "/%22%3C%3E%5C%5E%60%7B%7C%7D", "/%22%3C%3E%5C%5E%60%7B%7C%7D"},
	// Non-ASCII is encoded (fig. 4 third row).
	{"/foo/bar/ツ", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
	{"/\x80\xff", "/%80%FF", "/%80%FF"},
	// A stray '%' is kept.
	{"/100%", "/100%", "/100%"},
	{"/%zz", "/%zz", "/%zz"},
	{"/%4", "/%4", "/%4"},
	{"%", "%", "%"},
	{"/%%41", "/%A", "/%A"},
	// Allowed characters are kept.
	{"/a;b=c&d,e+f!g'h(i)j", "/a;b=c&d,e+f!g'h(i)j", "/a;b=c&d,e+f!g'h(i)j"},
	{"/p?q=1&r=/s?t", "/p?q=1&r=/s?t", "/p?q=1&r=/s?t"},
	{"", "", ""},
}

func TestAppendRFC(t *testing.T) {
	for _, tt := range rfcTests {
		for _, side := range []struct {
			s    pattern.Side
			name string
			want string
		}{{pattern.Rule, "Rule", tt.rule}, {pattern.Path, "Path", tt.path}} {
			if got := string(pattern.AppendRFC(nil, tt.in, side.s)); got != side.want {
				t.Errorf("AppendRFC(nil, %q, %s): got %q, want %q", tt.in, side.name, got, side.want)
			}
			if got := string(pattern.AppendRFC([]byte("x:"), tt.in, side.s)); got != "x:"+side.want {
				t.Errorf("AppendRFC(\"x:\", %q, %s): got %q, want %q", tt.in, side.name, got, "x:"+side.want)
			}
		}
	}
}

// TestAppendRFCIdempotent checks that the canonical form is a fixed point.
func TestAppendRFCIdempotent(t *testing.T) {
	for _, in := range needsInputs() {
		for _, side := range []pattern.Side{pattern.Rule, pattern.Path} {
			once := string(pattern.AppendRFC(nil, in, side))
			// The path side encodes '*' and '$' once; after that they
			// are gone, so twice is the same on both sides.
			if twice := string(pattern.AppendRFC(nil, once, side)); twice != once {
				t.Errorf("AppendRFC(%q, %s): %q, then %q", in, sideName(side), once, twice)
			}
		}
		once := string(pattern.AppendGoogle(nil, in))
		if twice := string(pattern.AppendGoogle(nil, once)); twice != once {
			t.Errorf("AppendGoogle(%q): %q, then %q", in, once, twice)
		}
	}
}

// TestMatchRFCPercentEncoding is RFC 9309 §2.2.3 fig. 6: a rule's %2A and
// %24 match a literal '*' and '$' in the URI once both sides are
// normalised, while the rule's own '*' and '$' keep their meaning.
func TestMatchRFCPercentEncoding(t *testing.T) {
	tests := []struct {
		rule, path string
		want       bool
	}{
		{"/path/file-with-a-%2A.html", "/path/file-with-a-*.html", true},
		{"/path/foo-%24", "/path/foo-$", true},
		{"/path/file-with-a-%2A.html", "/path/file-with-a-x.html", false},
		{"/path/foo-%24", "/path/foo-", false},
		{"/path/*.html$", "/path/a*b.html", true},
		{"/path/foo-$", "/path/foo-$", false},
		{"/foo/bar/%62%61%7A", "/foo/bar/baz", true},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84", true},
	}
	for _, tt := range tests {
		rule := string(pattern.AppendRFC(nil, tt.rule, pattern.Rule))
		path := string(pattern.AppendRFC(nil, tt.path, pattern.Path))
		if got := pattern.Match(path, rule); got != tt.want {
			t.Errorf("Match(%q→%q, %q→%q): got %v, want %v", tt.path, path, tt.rule, rule, got, tt.want)
		}
	}
}

// needsInputs returns the inputs of the normalisation tables plus random
// strings over an alphabet that makes escapes likely.
func needsInputs() []string {
	var ins []string
	for _, tt := range googleTests {
		ins = append(ins, tt.in)
	}
	for _, tt := range rfcTests {
		ins = append(ins, tt.in)
	}
	const alphabet = "%%%aAfF09gG/?*$ \x80\xff~:"
	rng := rand.New(rand.NewPCG(3986, 2))
	for i := 0; i < 2000; i++ {
		b := make([]byte, rng.IntN(7))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		ins = append(ins, string(b))
	}
	return ins
}

// TestNeedsGoogle checks that NeedsGoogle(s) is false exactly when
// AppendGoogle leaves s unchanged.
func TestNeedsGoogle(t *testing.T) {
	for _, in := range needsInputs() {
		if got, want := pattern.NeedsGoogle(in), string(pattern.AppendGoogle(nil, in)) != in; got != want {
			t.Errorf("NeedsGoogle(%q): got %v, want %v (AppendGoogle gives %q)", in, got, want, pattern.AppendGoogle(nil, in))
		}
	}
}

// TestNeedsRFCSafe checks the half of the NeedsRFC contract a caller relies
// on for correctness: when NeedsRFC says no, AppendRFC leaves s unchanged.
func TestNeedsRFCSafe(t *testing.T) {
	for _, in := range needsInputs() {
		for _, side := range []pattern.Side{pattern.Rule, pattern.Path} {
			if !pattern.NeedsRFC(in, side) {
				if out := string(pattern.AppendRFC(nil, in, side)); out != in {
					t.Errorf("NeedsRFC(%q, %s) = false, but AppendRFC gives %q", in, sideName(side), out)
				}
			}
		}
	}
}

// TestNeedsRFC checks the documented contract exactly ("NeedsRFC reports
// whether AppendRFC would change s"): NeedsRFC(s) is false exactly when
// AppendRFC leaves s unchanged.
func TestNeedsRFC(t *testing.T) {
	fails := 0
	for _, in := range needsInputs() {
		for _, side := range []pattern.Side{pattern.Rule, pattern.Path} {
			out := string(pattern.AppendRFC(nil, in, side))
			if got, want := pattern.NeedsRFC(in, side), out != in; got != want {
				if fails++; fails <= 12 {
					t.Errorf("NeedsRFC(%q, %s): got %v, want %v (AppendRFC gives %q)", in, sideName(side), got, want, out)
				}
			}
		}
	}
	if fails > 12 {
		t.Errorf("… and %d more", fails-12)
	}
}

func sideName(s pattern.Side) string {
	switch s {
	case pattern.Rule:
		return "Rule"
	case pattern.Path:
		return "Path"
	}
	return "Side(?)"
}
