package aipref

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// want is what a test expects of one Problem.
type want struct {
	off          int
	key, suggest string
}

func problemsOf(ps []Problem) []want {
	var out []want
	for _, p := range ps {
		out = append(out, want{p.Offset, p.Key, p.Suggest})
	}
	return out
}

// usageCases are the table of ParseUsage; the fuzz test starts from them.
var usageCases = []struct {
	name     string
	in       string
	prefs    Prefs
	valid    bool
	unknown  []string
	problems []want
}{
	// draft-ietf-aipref-vocab-08 §6: "train-ai=y, search=n".
	{name: "vocab-08 §6 example", in: "train-ai=y, search=n", valid: true,
		prefs: Prefs{Search: No, AITrain: Yes}},
	// draft-ietf-aipref-attach-05 §2: "Content-Usage: train-ai=n".
	{name: "attach-05 §2 example", in: "train-ai=n", valid: true, prefs: Prefs{AITrain: No}},
	// attach-05 §3.4: the rules of the example group.
	{name: "attach-05 §3.4 rule", in: "train-ai=y", valid: true, prefs: Prefs{AITrain: Yes}},
	// vocab-08 §6.1: ai-use is the label of AI Use (§4.2).
	{name: "ai-use", in: "ai-use=n, search=y", valid: true, prefs: Prefs{Search: Yes, AIInput: No}},
	// vocab-08 §3: with no statement every preference is unknown.
	{name: "empty", in: "", valid: true},
	{name: "spaces only", in: "   ", valid: true},
	// vocab-08 §6.5.1's example: only the last value of a label counts,
	// and none of them is a Token y or n.
	{name: "vocab-08 §6.5.1 duplicates", in: `train-ai=y, train-ai, search=n, search="n"`, valid: true,
		problems: []want{{0, "train-ai", ""}, {12, "train-ai", ""}, {22, "search", ""}, {39, "search", "search=n"}}},
	{name: "last wins", in: "train-ai=n, train-ai=y", valid: true, prefs: Prefs{AITrain: Yes},
		problems: []want{{0, "train-ai", ""}}},
	// vocab-08 §6.5: a Token other than y or n is unknown.
	{name: "token no", in: "train-ai=no", valid: true, problems: []want{{9, "train-ai", "train-ai=n"}}},
	{name: "token yes", in: "search=yes", valid: true, problems: []want{{7, "search", "search=y"}}},
	{name: "token upper N", in: "train-ai=N", valid: true, problems: []want{{9, "train-ai", "train-ai=n"}}},
	{name: "token other", in: "train-ai=maybe", valid: true, problems: []want{{9, "train-ai", ""}}},
	// RFC 9651 §3.2: a key alone is the Boolean true, not the Token y.
	{name: "bare label", in: "train-ai", valid: true, problems: []want{{0, "train-ai", ""}}},
	{name: "string n", in: `train-ai="n"`, valid: true, problems: []want{{9, "train-ai", "train-ai=n"}}},
	{name: "boolean ?0", in: "train-ai=?0", valid: true, problems: []want{{9, "train-ai", "train-ai=n"}}},
	{name: "integer", in: "train-ai=0", valid: true, problems: []want{{9, "train-ai", ""}}},
	{name: "decimal", in: "train-ai=1.5", valid: true, problems: []want{{9, "train-ai", ""}}},
	{name: "byte sequence", in: "train-ai=:AQID:", valid: true, problems: []want{{9, "train-ai", ""}}},
	{name: "byte sequence unpadded", in: "train-ai=:AQI:", valid: true, problems: []want{{9, "train-ai", ""}}},
	{name: "date", in: "train-ai=@1700000000", valid: true, problems: []want{{9, "train-ai", ""}}},
	{name: "display string", in: `train-ai=%"caf%c3%a9"`, valid: true, problems: []want{{9, "train-ai", ""}}},
	{name: "inner list", in: "train-ai=(y n);a=1, search=y", valid: true, prefs: Prefs{Search: Yes},
		problems: []want{{9, "train-ai", ""}}},
	{name: "empty inner list", in: "train-ai=(), search=n", valid: true, prefs: Prefs{Search: No},
		problems: []want{{9, "train-ai", ""}}},
	// vocab-08 §6.5.2: parameters are ignored.
	{name: "parameters", in: "train-ai=n;q=1;x, search=y; since=@0", valid: true, prefs: Prefs{Search: Yes, AITrain: No}},
	{name: "label as parameter", in: "train-ai=n;search=y", valid: true, prefs: Prefs{AITrain: No},
		problems: []want{{11, "search", "train-ai=n, search=y"}}},
	// vocab-08 §6.4: unknown labels are ignored; the ones that look like
	// mistakes are reported.
	{name: "unknown label", in: "train-ai=n, x-future=y, *=n", valid: true, prefs: Prefs{AITrain: No},
		unknown: []string{"x-future", "*"}},
	{name: "legacy train-genai", in: "train-genai=n", valid: true, unknown: []string{"train-genai"},
		problems: []want{{0, "train-genai", "train-ai"}}},
	{name: "legacy bots", in: "bots=n, search=y", valid: true, prefs: Prefs{Search: Yes}, unknown: []string{"bots"},
		problems: []want{{0, "bots", ""}}},
	{name: "legacy all", in: "all=n", valid: true, unknown: []string{"all"}, problems: []want{{0, "all", ""}}},
	{name: "legacy ai-output", in: "ai-output=n", valid: true, unknown: []string{"ai-output"},
		problems: []want{{0, "ai-output", "ai-use"}}},
	{name: "legacy inference", in: "inference=n", valid: true, unknown: []string{"inference"},
		problems: []want{{0, "inference", "ai-use"}}},
	{name: "content signals name", in: "ai-train=n, ai-input=n", valid: true, unknown: []string{"ai-train", "ai-input"},
		problems: []want{{0, "ai-train", "train-ai"}, {12, "ai-input", "ai-use"}}},
	{name: "misspelt", in: "train-al=n, serach=y, ai-usage=n", valid: true, unknown: []string{"train-al", "serach", "ai-usage"},
		problems: []want{{0, "train-al", "train-ai"}, {12, "serach", "search"}, {22, "ai-usage", "ai-use"}}},
	// Not within two edits of a label, and may be an extension (§4.4):
	// search-ai could mean AI search, which §4.3 keeps out of search.
	{name: "not a misspelling", in: "search-ai=n, ai-retrieval=n", valid: true, unknown: []string{"search-ai", "ai-retrieval"}},
	{name: "unknown repeated", in: "foo=y, foo=n", valid: true, unknown: []string{"foo"}},
	// RFC 9651 white space: OWS around commas, SP before the first
	// member and after the last.
	{name: "ows", in: " train-ai=y\t,\tsearch=n ", valid: true, prefs: Prefs{Search: No, AITrain: Yes}},
	{name: "no space after comma", in: "train-ai=y,search=n", valid: true, prefs: Prefs{Search: No, AITrain: Yes}},

	// Values that do not parse as a Dictionary: every preference unknown
	// (vocab-08 §6.5.1).
	{name: "upper-case key", in: "Train-ai=n", problems: []want{{0, "Train-ai", "train-ai"}}},
	{name: "upper-case inside key", in: "search=y, train-AI=n", problems: []want{{16, "train-AI", "train-ai"}}},
	{name: "colon", in: "train-ai: n", problems: []want{{8, "train-ai", "train-ai=n"}}},
	{name: "colon no", in: "train-ai:no", problems: []want{{8, "train-ai", "train-ai=n"}}},
	{name: "space before =", in: "train-ai =n", problems: []want{{9, "train-ai", "train-ai=n"}}},
	{name: "space after =", in: "train-ai= n", problems: []want{{9, "train-ai", "train-ai=n"}}},
	{name: "trailing comma", in: "train-ai=n,", problems: []want{{10, "", "train-ai=n"}}},
	{name: "empty member", in: "train-ai=n,,search=y", problems: []want{{11, "", ""}}},
	{name: "leading comma", in: ",train-ai=n", problems: []want{{0, "", ""}}},
	{name: "semicolon space", in: "train-ai=n ;search=y", problems: []want{{11, "train-ai", ""}}},
	{name: "space separated", in: "train-ai=n search=y", problems: []want{{11, "train-ai", ""}}},
	{name: "leading tab", in: "\ttrain-ai=n", problems: []want{{0, "", ""}}},
	{name: "not ascii", in: "train-ai=n, search=ÿ", problems: []want{{19, "", ""}}},
	{name: "value starts badly", in: "train-ai=!", problems: []want{{9, "train-ai", ""}}},
	{name: "nothing after =", in: "train-ai=", problems: []want{{9, "train-ai", ""}}},
	{name: "unclosed string", in: `train-ai="n`, problems: []want{{9, "train-ai", ""}}},
	{name: "bad escape", in: `train-ai="\n"`, problems: []want{{10, "train-ai", ""}}},
	{name: "unclosed inner list", in: "train-ai=(y n", problems: []want{{9, "train-ai", ""}}},
	{name: "inner list comma", in: "train-ai=(y,n)", problems: []want{{11, "train-ai", ""}}},
	{name: "boolean 2", in: "train-ai=?2", problems: []want{{9, "train-ai", ""}}},
	{name: "decimal dot last", in: "train-ai=1.", problems: []want{{10, "train-ai", ""}}},
	{name: "decimal 4 places", in: "train-ai=1.2345", problems: []want{{9, "train-ai", ""}}},
	{name: "integer 16 digits", in: "train-ai=1234567890123456", problems: []want{{9, "train-ai", ""}}},
	{name: "integer 15 digits", in: "train-ai=123456789012345", valid: true, problems: []want{{9, "train-ai", ""}}},
	{name: "minus alone", in: "train-ai=-", problems: []want{{10, "train-ai", ""}}},
	{name: "bad base64", in: "train-ai=:A*:", problems: []want{{11, "train-ai", ""}}},
	{name: "unclosed bytes", in: "train-ai=:AQID", problems: []want{{9, "train-ai", ""}}},
	{name: "decimal date", in: "train-ai=@1.5", problems: []want{{9, "train-ai", ""}}},
	{name: "display upper hex", in: `train-ai=%"%C3%A9"`, problems: []want{{11, "train-ai", ""}}},
	{name: "display not utf-8", in: `train-ai=%"%ff"`, problems: []want{{9, "train-ai", ""}}},
	{name: "parameter key", in: "train-ai=n;=1", problems: []want{{11, "train-ai", ""}}},
}

func TestParseUsage(t *testing.T) {
	for _, tt := range usageCases {
		t.Run(tt.name, func(t *testing.T) {
			u := ParseUsage(tt.in)
			if u.Valid != tt.valid || u.Prefs != tt.prefs {
				t.Errorf("ParseUsage(%q): valid %v, prefs %v; want %v, %v", tt.in, u.Valid, u.Prefs, tt.valid, tt.prefs)
			}
			if !slices.Equal(u.Unknown, tt.unknown) {
				t.Errorf("ParseUsage(%q): unknown %q, want %q", tt.in, u.Unknown, tt.unknown)
			}
			if got := problemsOf(u.Problems); !slices.Equal(got, tt.problems) {
				t.Errorf("ParseUsage(%q): problems %+v, want %+v", tt.in, got, tt.problems)
				for _, p := range u.Problems {
					t.Logf("  %d %s", p.Offset, p.Msg)
				}
			}
			for _, p := range u.Problems {
				if p.Msg == "" {
					t.Errorf("ParseUsage(%q): a problem without a message: %+v", tt.in, p)
				}
			}
		})
	}
}

// TestParseUsageStated: Stated tells a label with an unusable value from
// a label not given.
func TestParseUsageStated(t *testing.T) {
	u := ParseUsage("train-ai=no, search=y")
	if want := [NumPurposes]bool{Search: true, AITrain: true}; u.Stated != want {
		t.Errorf("Stated = %v, want %v", u.Stated, want)
	}
	if u := ParseUsage("Train-ai=n"); u.Stated != [NumPurposes]bool{} {
		t.Errorf("Stated of a value that does not parse = %v", u.Stated)
	}
}

// TestParseUsageMessages: the messages cite their sources.
func TestParseUsageMessages(t *testing.T) {
	for in, cite := range map[string]string{
		"train-ai=no":            "§6.2",
		"Train-ai=n":             "§6.5.1",
		"train-genai=n":          "draft-ietf-aipref-vocab-02 to -03",
		"train-ai":               "RFC 9651 §3.2",
		"a=n;search=y":           "§6.5.2",
		"train-ai=y, train-ai=n": "§6.5.1",
	} {
		u := ParseUsage(in)
		if len(u.Problems) == 0 || !strings.Contains(u.Problems[0].Msg, cite) {
			t.Errorf("ParseUsage(%q): %+v, want a message citing %q", in, u.Problems, cite)
		}
	}
}

// TestParseUsageLinear: the work grows with the input, not faster.
func TestParseUsageLinear(t *testing.T) {
	for _, unit := range []string{"train-ai=n, ", "train-al=y;search=n, ", "x=(a b c d), ", "train-ai, "} {
		in := strings.Repeat(unit, 20000) + "search=y"
		u := ParseUsage(in)
		if !u.Valid || u.Prefs[Search] != Yes {
			t.Fatalf("%q×20000: %+v", unit, u.Prefs)
		}
	}
	long := "a" + strings.Repeat("b", 1<<20) + "=y"
	if u := ParseUsage(long); !u.Valid || len(u.Unknown) != 1 || len(u.Problems) != 0 {
		t.Errorf("a 1 MiB label: valid %v, %d unknown, %d problems", u.Valid, len(u.Unknown), len(u.Problems))
	}
}

var signalCases = []struct {
	name     string
	in       string
	prefs    Prefs
	use      string
	unknown  []string
	problems []want
}{
	// Cloudflare's managed robots.txt: "Content-Signal: search=yes, ai-train=no".
	{name: "managed robots.txt", in: "search=yes, ai-train=no", prefs: Prefs{Search: Yes, AITrain: No}},
	// Managed files since 2026: no spaces, and use=.
	{name: "use=reference", in: "search=yes,ai-train=no,use=reference", prefs: Prefs{Search: Yes, AITrain: No}, use: "reference"},
	// Markdown for Agents sends it as a response header.
	{name: "header", in: "ai-train=yes, search=yes, ai-input=yes", prefs: Prefs{Yes, Yes, Yes}},
	{name: "case", in: "Search=YES, AI-Train=No, Use=Full", prefs: Prefs{Search: Yes, AITrain: No}, use: "full"},
	{name: "empty", in: ""},
	{name: "omitted", in: "ai-input=no", prefs: Prefs{AIInput: No}},
	{name: "allow disallow", in: "search=allow, ai-train=disallow",
		problems: []want{{7, "search", "search=yes"}, {23, "ai-train", "ai-train=no"}}},
	{name: "y n", in: "search=y, ai-input=n", problems: []want{{7, "search", "search=yes"}, {19, "ai-input", "ai-input=no"}}},
	{name: "true false", in: "search=true,ai-train=false", problems: []want{{7, "search", "search=yes"}, {21, "ai-train", "ai-train=no"}}},
	{name: "quoted", in: `ai-train="no"`, problems: []want{{9, "ai-train", "ai-train=no"}}},
	{name: "other value", in: "ai-train=later", problems: []want{{9, "ai-train", ""}}},
	{name: "semicolons", in: "search=yes; ai-train=no", problems: []want{{7, "search", ""}}},
	{name: "no value", in: "search, ai-train=no", prefs: Prefs{AITrain: No}, problems: []want{{0, "search", ""}}},
	{name: "empty value", in: "search=", problems: []want{{7, "search", ""}}},
	{name: "use unknown", in: "use=everything", problems: []want{{4, "use", ""}}},
	{name: "use twice", in: "use=full, use=immediate", use: "immediate", problems: []want{{10, "use", ""}}},
	{name: "use twice kept", in: "use=immediate, use=full", use: "immediate", problems: []want{{15, "use", ""}}},
	{name: "twice", in: "search=no, search=yes", prefs: Prefs{Search: No}, problems: []want{{11, "search", ""}}},
	{name: "ai-training", in: "ai-training=no", unknown: []string{"ai-training"}, problems: []want{{0, "ai-training", "ai-train"}}},
	{name: "ai_input", in: "ai_input=no", unknown: []string{"ai_input"}, problems: []want{{0, "ai_input", "ai-input"}}},
	{name: "aipref labels", in: "train-ai=no, ai-use=no", unknown: []string{"train-ai", "ai-use"},
		problems: []want{{0, "train-ai", "ai-train"}, {13, "ai-use", "ai-input"}}},
	{name: "misspelt", in: "serach=yes", unknown: []string{"serach"}, problems: []want{{0, "serach", "search"}}},
	{name: "unknown", in: "search=yes, licence=https://example.com/l", prefs: Prefs{Search: Yes}, unknown: []string{"licence"}},
	{name: "unknown twice", in: "x=1, X=2", unknown: []string{"x"}},
	{name: "empty entry", in: "search=yes,,ai-train=no", prefs: Prefs{Search: Yes, AITrain: No}, problems: []want{{11, "", ""}}},
	{name: "trailing comma", in: "search=yes, ", prefs: Prefs{Search: Yes}, problems: []want{{12, "", ""}}},
	{name: "ows", in: " \tsearch = yes\t,ai-train=\tno ", prefs: Prefs{Search: Yes, AITrain: No}},
}

func TestParseSignal(t *testing.T) {
	for _, tt := range signalCases {
		t.Run(tt.name, func(t *testing.T) {
			s := ParseSignal(tt.in)
			if s.Prefs != tt.prefs || s.Use != tt.use {
				t.Errorf("ParseSignal(%q): prefs %v, use %q; want %v, %q", tt.in, s.Prefs, s.Use, tt.prefs, tt.use)
			}
			if !slices.Equal(s.Unknown, tt.unknown) {
				t.Errorf("ParseSignal(%q): unknown %q, want %q", tt.in, s.Unknown, tt.unknown)
			}
			if got := problemsOf(s.Problems); !slices.Equal(got, tt.problems) {
				t.Errorf("ParseSignal(%q): problems %+v, want %+v", tt.in, got, tt.problems)
				for _, p := range s.Problems {
					t.Logf("  %d %s", p.Offset, p.Msg)
				}
			}
		})
	}
}

// TestCombine: vocab-08 §5.1, any disallow wins, then any allow.
func TestCombine(t *testing.T) {
	for _, tt := range []struct{ a, b, want Value }{
		{None, None, None},
		{None, Yes, Yes},
		{Yes, None, Yes},
		{Yes, Yes, Yes},
		{None, No, No},
		{No, None, No},
		{Yes, No, No},
		{No, Yes, No},
		{No, No, No},
	} {
		for p := range NumPurposes {
			var a, b, want Prefs
			a[p], b[p], want[p] = tt.a, tt.b, tt.want
			if got := Combine(a, b); got != want {
				t.Errorf("Combine(%v, %v) = %v, want %v", a, b, got, want)
			}
		}
	}
	a := Prefs{Search: Yes, AIInput: No}
	b := Prefs{AIInput: Yes, AITrain: No}
	if got, want := Combine(a, b), (Prefs{Search: Yes, AIInput: No, AITrain: No}); got != want {
		t.Errorf("Combine(%v, %v) = %v, want %v", a, b, got, want)
	}
}

// TestLabels: the §6.1 tables of each revision of draft-ietf-aipref-vocab.
func TestLabels(t *testing.T) {
	for _, tt := range []struct {
		name    string
		purpose Purpose
		current bool
		drafts  string
	}{
		{"train-ai", AITrain, true, "-02 to -08"},
		{"ai-use", AIInput, true, "-02, -08"},
		{"search", Search, true, "-01 to -08"},
		{"tdm", NumPurposes, false, "-01"},
		{"ai", NumPurposes, false, "-01"},
		{"genai", NumPurposes, false, "-01"},
		{"inference", NumPurposes, false, "-01"},
		{"all", NumPurposes, false, "-02"},
		{"train-genai", NumPurposes, false, "-02 to -03"},
		{"bots", NumPurposes, false, "-03 to -04"},
		{"ai-output", NumPurposes, false, "-04"},
	} {
		l, ok := LookupLabel(tt.name)
		if !ok || l.Name != tt.name || l.Purpose != tt.purpose || l.Current != tt.current || l.Drafts != tt.drafts || l.Note == "" {
			t.Errorf("LookupLabel(%q) = %+v, %v", tt.name, l, ok)
		}
	}
	ls := Labels()
	if len(ls) != 11 {
		t.Errorf("Labels() has %d labels, want 11", len(ls))
	}
	var current []string
	for _, l := range ls {
		if l.Current {
			current = append(current, l.Name)
		}
	}
	if want := []string{"train-ai", "ai-use", "search"}; !slices.Equal(current, want) {
		t.Errorf("current labels %q, want %q", current, want)
	}
	ls[0].Name = "changed"
	if Labels()[0].Name != "train-ai" {
		t.Error("Labels returns the package's own table")
	}
	// vocab-08 §6.1: "These tokens are case sensitive."
	for _, name := range []string{"Train-ai", "SEARCH", "ai-input", ""} {
		if l, ok := LookupLabel(name); ok {
			t.Errorf("LookupLabel(%q) = %+v", name, l)
		}
	}
}

func TestPurposeValue(t *testing.T) {
	for p, name := range map[Purpose]string{Search: "search", AIInput: "ai-input", AITrain: "ai-train", NumPurposes: "", 7: "purpose(7)"} {
		if got := p.String(); got != name {
			t.Errorf("Purpose(%d).String() = %q, want %q", p, got, name)
		}
		if p >= NumPurposes {
			continue
		}
		for _, s := range []string{name, strings.ToUpper(name)} {
			if got, ok := ParsePurpose(s); !ok || got != p {
				t.Errorf("ParsePurpose(%q) = %v, %v", s, got, ok)
			}
		}
	}
	for _, s := range []string{"", "train-ai", "ai-use", "search ", "ai-ınput"} {
		if p, ok := ParsePurpose(s); ok {
			t.Errorf("ParsePurpose(%q) = %v", s, p)
		}
	}
	for v, name := range map[Value]string{None: "none", Yes: "yes", No: "no", 9: "value(9)"} {
		if got := v.String(); got != name {
			t.Errorf("Value(%d).String() = %q, want %q", v, got, name)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"train-ai", "train-ai", 0},
		{"train-al", "train-ai", 1},
		{"trian-ai", "train-ai", 1},
		{"ai-usage", "ai-use", 2},
		{"search-ai", "search", 3},
		{"", "search", 3},
		{strings.Repeat("a", 65), strings.Repeat("a", 65), 3},
	} {
		if got := distance(tt.a, tt.b, 3); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// FuzzParseUsage: ParseUsage never panics, is deterministic, leaves every
// preference unknown when the Dictionary does not parse (vocab-08
// §6.5.1), and reports offsets within the value.
func FuzzParseUsage(f *testing.F) {
	for _, tt := range usageCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u := ParseUsage(s)
		if !reflect.DeepEqual(u, ParseUsage(s)) {
			t.Fatalf("ParseUsage(%q) differs between two calls", s)
		}
		if !u.Valid {
			if u.Prefs != (Prefs{}) || u.Stated != [NumPurposes]bool{} || u.Unknown != nil || len(u.Problems) != 1 {
				t.Fatalf("ParseUsage(%q) not valid, yet %+v", s, u)
			}
		}
		for p, v := range u.Prefs {
			if v > No || v != None && !u.Stated[p] {
				t.Fatalf("ParseUsage(%q): prefs %v, stated %v", s, u.Prefs, u.Stated)
			}
		}
		last := 0
		for _, p := range u.Problems {
			if p.Offset < last || p.Offset > len(s) || p.Msg == "" {
				t.Fatalf("ParseUsage(%q): problem %+v after offset %d", s, p, last)
			}
			last = p.Offset
		}
		for _, k := range u.Unknown {
			if _, ok := currentLabel(k); ok || !strings.Contains(s, k) {
				t.Fatalf("ParseUsage(%q): unknown %q", s, k)
			}
		}
	})
}

// FuzzParseSignal: ParseSignal never panics, is deterministic, and keeps
// use= to its three values.
func FuzzParseSignal(f *testing.F) {
	for _, tt := range signalCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sig := ParseSignal(s)
		if !reflect.DeepEqual(sig, ParseSignal(s)) {
			t.Fatalf("ParseSignal(%q) differs between two calls", s)
		}
		if sig.Use != "" && useRank[sig.Use] == 0 {
			t.Fatalf("ParseSignal(%q): use %q", s, sig.Use)
		}
		for _, v := range sig.Prefs {
			if v > No {
				t.Fatalf("ParseSignal(%q): prefs %v", s, sig.Prefs)
			}
		}
		last := 0
		for _, p := range sig.Problems {
			if p.Offset < last || p.Offset > len(s) || p.Msg == "" {
				t.Fatalf("ParseSignal(%q): problem %+v after offset %d", s, p, last)
			}
			last = p.Offset
		}
	})
}
