package meta

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/aipref"
)

const (
	yes = aipref.Yes
	no  = aipref.No
)

// stmt is what a test expects of one UsageStatement.
type stmt struct {
	source   string
	prefs    aipref.Prefs
	value    string
	policy   string
	images   bool
	problems int // how many
	suggest  string
}

func stmtsOf(ss []UsageStatement) []stmt {
	var out []stmt
	for _, s := range ss {
		st := stmt{s.Source, s.Prefs, s.Value, s.Policy, s.Images, len(s.Problems), ""}
		for _, p := range s.Problems {
			if p.Suggest != "" {
				st.suggest = p.Suggest
				break
			}
		}
		out = append(out, st)
	}
	return out
}

func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

func TestUsageFromHeader(t *testing.T) {
	big := "train-ai=n, " + strings.Repeat("x=y, ", MaxHeaderValue/5) + "search=y"
	for _, tt := range []struct {
		name string
		h    http.Header
		want []stmt
	}{
		{"none", header("X-Robots-Tag", "noindex"), nil},
		// draft-ietf-aipref-attach-05 §2: "Content-Usage: train-ai=n".
		{"content-usage", header("Content-Usage", "train-ai=n"),
			[]stmt{{source: "Content-Usage header", prefs: aipref.Prefs{aipref.AITrain: no}, value: "train-ai=n"}}},
		// RFC 9651 §4.2: the field lines of a Dictionary are combined.
		{"two fields", header("Content-Usage", "train-ai=n", "Content-Usage", "search=y"),
			[]stmt{{source: "Content-Usage header", prefs: aipref.Prefs{aipref.Search: yes, aipref.AITrain: no}, value: "train-ai=n, search=y"}}},
		// vocab-08 §6.5.1: of a label given twice the last value counts,
		// across field lines too.
		{"two fields, one label", header("Content-Usage", "train-ai=n", "Content-Usage", "train-ai=y"),
			[]stmt{{source: "Content-Usage header", prefs: aipref.Prefs{aipref.AITrain: yes}, value: "train-ai=n, train-ai=y", problems: 1}}},
		{"empty field line", header("Content-Usage", "", "Content-Usage", "search=n"),
			[]stmt{{source: "Content-Usage header", prefs: aipref.Prefs{aipref.Search: no}, value: "search=n"}}},
		{"only empty", header("Content-Usage", " "), nil},
		// vocab-08 §6.5: "no" is not the Token n.
		{"train-ai=no", header("Content-Usage", "train-ai=no"),
			[]stmt{{source: "Content-Usage header", value: "train-ai=no", problems: 1, suggest: "train-ai=n"}}},
		{"does not parse", header("Content-Usage", "Train-AI=n"),
			[]stmt{{source: "Content-Usage header", value: "Train-AI=n", problems: 1, suggest: "train-ai"}}},
		{"too long", header("Content-Usage", big), []stmt{{source: "Content-Usage header", problems: 1}}},
		// Cloudflare's Markdown for Agents response header.
		{"content-signal", header("Content-Signal", "ai-train=yes, search=yes, ai-input=yes"),
			[]stmt{{source: "Content-Signal header", prefs: aipref.Prefs{yes, yes, yes}, value: "ai-train=yes, search=yes, ai-input=yes"}}},
		{"content-signal allow", header("Content-Signal", "ai-train=disallow"),
			[]stmt{{source: "Content-Signal header", value: "ai-train=disallow", problems: 1, suggest: "ai-train=no"}}},
		// TDMRep #sec-tdm-header's second example.
		{"tdm 1 with policy", header("tdm-reservation", "1", "tdm-policy", "https://provider.com/policies/policy.json"),
			[]stmt{{source: "tdm-reservation header", prefs: aipref.Prefs{aipref.AITrain: no}, value: "1", policy: "https://provider.com/policies/policy.json"}}},
		{"tdm 1", header("TDM-Reservation", " 1 "),
			[]stmt{{source: "tdm-reservation header", prefs: aipref.Prefs{aipref.AITrain: no}, value: "1"}}},
		{"tdm 0", header("tdm-reservation", "0"),
			[]stmt{{source: "tdm-reservation header", prefs: aipref.Prefs{aipref.AITrain: yes}, value: "0"}}},
		// #sec-tdm-policy: with 0, agents SHOULD NOT process tdm-policy.
		{"tdm 0 with policy", header("tdm-reservation", "0", "tdm-policy", "https://p.example/p.json"),
			[]stmt{{source: "tdm-reservation header", prefs: aipref.Prefs{aipref.AITrain: yes}, value: "0", policy: "https://p.example/p.json", problems: 1}}},
		// #sec-tdm-reservation: other values are protocol errors, unset.
		{"tdm 2", header("tdm-reservation", "2"),
			[]stmt{{source: "tdm-reservation header", value: "2", problems: 1}}},
		{"tdm yes", header("tdm-reservation", "yes"),
			[]stmt{{source: "tdm-reservation header", value: "yes", problems: 1}}},
		{"tdm twice agreeing", header("tdm-reservation", "1", "tdm-reservation", "1"),
			[]stmt{{source: "tdm-reservation header", prefs: aipref.Prefs{aipref.AITrain: no}, value: "1", problems: 1}}},
		{"tdm twice differing", header("tdm-reservation", "1", "tdm-reservation", "0"),
			[]stmt{{source: "tdm-reservation header", value: "1, 0", problems: 1}}},
		{"tdm policy alone", header("tdm-policy", "https://p.example/p.json"),
			[]stmt{{source: "tdm-reservation header", policy: "https://p.example/p.json", problems: 1}}},
		{"tdm policy relative", header("tdm-reservation", "1", "tdm-policy", "/policy.json"),
			[]stmt{{source: "tdm-reservation header", prefs: aipref.Prefs{aipref.AITrain: no}, value: "1", policy: "/policy.json", problems: 1}}},
		{"all three", header("tdm-reservation", "1", "Content-Signal", "search=yes", "Content-Usage", "search=y"),
			[]stmt{
				{source: "Content-Usage header", prefs: aipref.Prefs{aipref.Search: yes}, value: "search=y"},
				{source: "Content-Signal header", prefs: aipref.Prefs{aipref.Search: yes}, value: "search=yes"},
				{source: "tdm-reservation header", prefs: aipref.Prefs{aipref.AITrain: no}, value: "1"},
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := UsageFromHeader(tt.h)
			if g := stmtsOf(got); !slices.Equal(g, tt.want) {
				t.Errorf("UsageFromHeader:\n got %+v\nwant %+v", g, tt.want)
				for _, s := range got {
					for _, p := range s.Problems {
						t.Logf("  %s: %s", s.Source, p.Msg)
					}
				}
			}
		})
	}
}

func TestUsageFromHeaderManyFields(t *testing.T) {
	h := http.Header{}
	for range MaxHeaderFields + 1 {
		h.Add("Content-Usage", "search=y")
	}
	got := UsageFromHeader(h)
	if len(got) != 1 || got[0].Prefs != (aipref.Prefs{}) || len(got[0].Problems) != 1 {
		t.Errorf("%d Content-Usage fields: %+v", MaxHeaderFields+1, got)
	}
}

func TestUsageFromDirectives(t *testing.T) {
	const page = `<html><head><meta name="robots" content="noimageai"><meta name="bingbot" content="nocache"></head></html>`
	doc, err := ReadHTML(strings.NewReader(page), DefaultMaxBytes)
	if err != nil {
		t.Fatal(err)
	}
	bingNo := aipref.Prefs{aipref.AIInput: no, aipref.AITrain: no}
	trainNo := aipref.Prefs{aipref.AITrain: no}
	for _, tt := range []struct {
		name  string
		ds    []Directive
		robot string
		want  []stmt
	}{
		// DeviantArt: "an HTTP header with the noai directive is sent
		// when the image is directly downloaded".
		{"noai header", ParseXRobotsTag("noai"), "Googlebot",
			[]stmt{{source: "X-Robots-Tag", prefs: trainNo, value: "noai", problems: 1}}},
		{"noai every robot", ParseXRobotsTag("noai"), "",
			[]stmt{{source: "X-Robots-Tag", prefs: trainNo, value: "noai", problems: 1}}},
		// "an HTML tag with the noimageai directive is placed on the page".
		{"noimageai meta", doc.Directives, "CCBot",
			[]stmt{{source: "robots meta tag", prefs: trainNo, value: "noimageai", images: true, problems: 1}}},
		{"noimageai and bing's own tag", doc.Directives, "bingbot",
			[]stmt{
				{source: "robots meta tag", prefs: trainNo, value: "noimageai", images: true, problems: 1},
				{source: "robots meta tag", prefs: bingNo, value: "nocache", problems: 1},
			}},
		{"both in one list", ParseXRobotsTag("noai, noimageai"), "GPTBot",
			[]stmt{
				{source: "X-Robots-Tag", prefs: trainNo, value: "noai", problems: 1},
				{source: "X-Robots-Tag", prefs: trainNo, value: "noimageai", images: true, problems: 1},
			}},
		{"addressed to another robot", ParseXRobotsTag("googlebot: noai"), "bingbot", nil},
		{"addressed to the robot", ParseXRobotsTag("googlebot: noai"), "Googlebot",
			[]stmt{{source: "X-Robots-Tag", prefs: trainNo, value: "noai", problems: 1}}},
		{"addressed, no robot asked", ParseXRobotsTag("googlebot: noai"), "", nil},
		// draft-illyes-repext-00 §2.1.1: ExampleBot= gives ExampleBot no rules.
		{"robots-tag", ParseRobotsTag("*=noai; ExampleBot=;"), "ExampleBot", nil},
		{"robots-tag other", ParseRobotsTag("*=noai; ExampleBot=;"), "OtherBot",
			[]stmt{{source: "Robots-Tag header", prefs: trainNo, value: "noai", problems: 1}}},
		{"noai with a value", ParseXRobotsTag("noai: images"), "GPTBot", nil},
		// Bing Webmaster Blog, September 2023: NOARCHIVE keeps the
		// content out of Bing Chat answers and of training.
		{"noarchive bing", ParseXRobotsTag("noarchive"), "bingbot",
			[]stmt{{source: "X-Robots-Tag", prefs: bingNo, value: "noarchive"}}},
		{"noarchive msnbot", ParseXRobotsTag("noarchive"), "msnbot",
			[]stmt{{source: "X-Robots-Tag", prefs: bingNo, value: "noarchive"}}},
		{"noarchive bing with version", ParseXRobotsTag("NOARCHIVE"), "Bingbot/2.0",
			[]stmt{{source: "X-Robots-Tag", prefs: bingNo, value: "NOARCHIVE"}}},
		{"noarchive other robot", ParseXRobotsTag("noarchive"), "Googlebot", nil},
		{"noarchive no robot", ParseXRobotsTag("noarchive"), "", nil},
		{"noarchive addressed to bing", ParseXRobotsTag("bingbot: noarchive"), "bingbot",
			[]stmt{{source: "X-Robots-Tag", prefs: bingNo, value: "noarchive"}}},
		// NOCACHE: URL, snippet and title only.
		{"nocache bing", ParseXRobotsTag("nocache"), "bingbot",
			[]stmt{{source: "X-Robots-Tag", prefs: bingNo, value: "nocache", problems: 1}}},
		// "If content has both NOCACHE and NOARCHIVE tags, we will treat
		// it as NOCACHE."
		{"both bing", ParseXRobotsTag("noarchive, nocache"), "bingbot",
			[]stmt{
				{source: "X-Robots-Tag", prefs: bingNo, value: "noarchive", problems: 1},
				{source: "X-Robots-Tag", prefs: bingNo, value: "nocache", problems: 1},
			}},
		{"nocache for another robot does not qualify", ParseXRobotsTag("noarchive", "googlebot: nocache"), "bingbot",
			[]stmt{{source: "X-Robots-Tag", prefs: bingNo, value: "noarchive"}}},
		{"indexing only", ParseXRobotsTag("noindex, nofollow, nosnippet"), "bingbot", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := UsageFromDirectives(tt.ds, tt.robot)
			if g := stmtsOf(got); !slices.Equal(g, tt.want) {
				t.Errorf("UsageFromDirectives(%q):\n got %+v\nwant %+v", tt.robot, g, tt.want)
			}
			for _, s := range got {
				for _, p := range s.Problems {
					if p.Msg == "" || p.Key == "" {
						t.Errorf("problem %+v", p)
					}
				}
			}
		})
	}
}

// TestUsageCombine: statements of several sources combine as
// draft-ietf-aipref-vocab-08 §5.1 says, any disallow first.
func TestUsageCombine(t *testing.T) {
	h := header("Content-Usage", "train-ai=y, search=y", "X-Robots-Tag", "noai")
	ss := append(UsageFromHeader(h), UsageFromDirectives(FromHeader(h), "GPTBot")...)
	var p aipref.Prefs
	for _, s := range ss {
		p = aipref.Combine(p, s.Prefs)
	}
	if want := (aipref.Prefs{aipref.Search: yes, aipref.AITrain: no}); p != want {
		t.Errorf("combined %v, want %v", p, want)
	}
}

func FuzzUsageFromHeader(f *testing.F) {
	f.Add("train-ai=n", "search=yes", "1", "noai, bingbot: nocache")
	f.Add("train-ai=y, train-ai", "ai-train=disallow", "2", "noarchive")
	f.Fuzz(func(t *testing.T, cu, cs, tdm, xrt string) {
		h := header("Content-Usage", cu, "Content-Signal", cs, "tdm-reservation", tdm, "X-Robots-Tag", xrt)
		for _, s := range append(UsageFromHeader(h), UsageFromDirectives(FromHeader(h), "bingbot")...) {
			for _, v := range s.Prefs {
				if v > aipref.No {
					t.Fatalf("%+v", s)
				}
			}
			for _, p := range s.Problems {
				if p.Offset < 0 || p.Offset > len(s.Value) || p.Msg == "" {
					t.Fatalf("%s: problem %+v of %q", s.Source, p, s.Value)
				}
			}
		}
	})
}
