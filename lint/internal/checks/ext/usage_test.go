package ext

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/lint/internal/check/checktest"
	"github.com/robotskit/robots/syntax"
)

func TestUsageExamples(t *testing.T) { checktest.Examples(t, usageChecks) }

func TestUsageCorpus(t *testing.T) { checktest.Corpus(t, usageChecks) }

// findings runs c on src, read from example.com, and writes each finding
// as "line:column message", with " [FXnn]" and the fixed text when it
// has a fix.
func findings(t *testing.T, c *check.Check, src string) []string {
	t.Helper()
	p := check.NewPass(context.Background(), syntax.Parse("", []byte(src)), "https://example.com/robots.txt", nil)
	if err := p.Run(c); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range p.Diagnostics() {
		s := fmt.Sprintf("%d:%d %s", d.Line, d.Column, d.Message)
		for _, r := range d.Related {
			s += fmt.Sprintf(" (%d: %s)", r.Line, r.Note)
		}
		if d.Fix.ID != "" {
			fixed, err := textedit.Apply(src, d.Fix.Edits)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			s += fmt.Sprintf(" [%s] %q", d.Fix.ID, fixed)
		}
		out = append(out, s)
	}
	return out
}

func TestUsageChecks(t *testing.T) {
	for _, tc := range []struct {
		c    *check.Check
		src  string
		want []string
	}{
		// RB673: a path without its "/" leaves the rule without a path.
		{rb673, "User-agent: *\nContent-Usage: blog/ train-ai=n\nContent-Usage: *.pdf train-ai=n\n",
			[]string{
				`2:16 Content-Usage path "blog/" does not start with "/": the rule is read as having no path and "blog/ train-ai=n" as its preference, which does not parse, so it states nothing (draft-ietf-aipref-attach-05 §3.2) [FX39] "User-agent: *\nContent-Usage: /blog/ train-ai=n\nContent-Usage: *.pdf train-ai=n\n"`,
				`3:16 Content-Usage path "*.pdf" does not start with "/": the rule is read as having no path and "*.pdf train-ai=n" as its preference, which does not parse, so it states nothing (draft-ietf-aipref-attach-05 §3.2) [FX39] "User-agent: *\nContent-Usage: blog/ train-ai=n\nContent-Usage: /*.pdf train-ai=n\n"`,
			}},
		// No fix when the preference after the path would not parse
		// either.
		{rb673, "User-agent: *\nContent-Usage: blog/ Train-AI=n\n",
			[]string{`2:16 Content-Usage path "blog/" does not start with "/": the rule is read as having no path and "blog/ Train-AI=n" as its preference, which does not parse, so it states nothing (draft-ietf-aipref-attach-05 §3.2)`}},
		// A preference alone, a path, two members without a comma: none
		// is a path without its "/".
		{rb673, "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=n\nContent-Usage: train-ai=n search=y\nContent-Usage: ./x train-ai=n\nContent-Usage: blog/\n", nil},

		// RB674: values, labels and a path without a preference.
		{rb674, "User-agent: *\nContent-Usage: train-ai=no\nContent-Usage: /a/ search=\"n\", ai-retrieval=n\nContent-Usage: train-genai=n\nContent-Usage: /b/\n",
			[]string{
				`2:25 the value of train-ai is the Token y or n (draft-ietf-aipref-vocab-08 §6.2), not "no"; the preference is unknown (draft-ietf-aipref-vocab-08 §6.5); write "train-ai=n" [FX41] "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a/ search=\"n\", ai-retrieval=n\nContent-Usage: train-genai=n\nContent-Usage: /b/\n"`,
				`3:27 the value of search is the Token y or n (draft-ietf-aipref-vocab-08 §6.2), not the String "n"; the preference is unknown (draft-ietf-aipref-vocab-08 §6.5); write "search=n" [FX41] "User-agent: *\nContent-Usage: train-ai=no\nContent-Usage: /a/ search=n, ai-retrieval=n\nContent-Usage: train-genai=n\nContent-Usage: /b/\n"`,
				`3:32 ai-retrieval is not a label of draft-ietf-aipref-vocab-08 (train-ai, ai-use, search), which ignores unknown labels (§6.4)`,
				`4:16 train-genai is a label of draft-ietf-aipref-vocab-02 to -03 only, and draft-ietf-aipref-vocab-08 ignores unknown labels (§6.4): Generative AI Training, under train-ai, in -02 and -03; -08's train-ai is the training of generative AI models (§4.1); write "train-ai"`,
				`5:16 Content-Usage rule for "/b/" states no preference: write the preference after the path, such as "/b/ train-ai=n"`,
			}},
		{rb674, "User-agent: *\nContent-Usage:\nAllow: /\n",
			[]string{`2:15 Content-Usage has no value: it states no preference`}},
		{rb674, "User-agent: *\nContent-Usage: train-ai=n, search=y\nContent-Usage: /x/ ai-use=n\nContent-Usage: blog/ train-ai=n\n", nil},

		// RB675: the same path, opposite preferences; another path, or
		// another group, is no conflict.
		{rb675, "User-agent: *\nContent-Usage: /docs/ train-ai=y, search=y\nContent-Usage: /docs/ train-ai=n\nContent-Usage: /other/ train-ai=n\nContent-Usage: train-ai=y\nAllow: /\n\nUser-agent: GPTBot\nContent-Usage: /docs/ train-ai=y\n",
			[]string{`3:1 Content-Usage for "/docs/" says train-ai=n here and train-ai=y at line 2: the most restrictive preference applies (draft-ietf-aipref-attach-05 §3.1), so train-ai=n (2: the other Content-Usage rule for the path)`}},
		{rb675, "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: search=y, train-ai=y\n",
			[]string{`3:1 Content-Usage for every path says train-ai=y here and train-ai=n at line 2: the most restrictive preference applies (draft-ietf-aipref-attach-05 §3.1), so train-ai=n (2: the other Content-Usage rule for the path)`}},

		// RB676: a rule under a Disallow, for every agent of the group.
		{rb676, "User-agent: *\nDisallow: /private/\nContent-Usage: /private/ train-ai=n\nContent-Usage: /private/deep/ train-ai=n\nContent-Usage: /public/ train-ai=n\n",
			[]string{
				`3:1 Content-Usage for "/private/" has no effect: the group disallows every path under it (line 2), and preferences apply only to what may be crawled (draft-ietf-aipref-attach-05 §3.1) (2: the Disallow rule)`,
				`4:1 Content-Usage for "/private/deep/" has no effect: the group disallows every path under it (line 2), and preferences apply only to what may be crawled (draft-ietf-aipref-attach-05 §3.1) (2: the Disallow rule)`,
			}},
		// An Allow inside the path, a "$" rule, a wildcard path, a path
		// one agent of the group may crawl, and a group merged with a
		// later one that allows it: no finding.
		{rb676, "User-agent: *\nDisallow: /private/\nAllow: /private/open/\nContent-Usage: /private/ train-ai=n\n", nil},
		{rb676, "User-agent: *\nDisallow: /x$\nDisallow: /y/\nContent-Usage: /x train-ai=n\nContent-Usage: /y/*.pdf train-ai=n\n", nil},
		{rb676, "User-agent: a\nUser-agent: b\nDisallow: /p/\nContent-Usage: /p/ train-ai=n\n\nUser-agent: b\nAllow: /p/\n", nil},
		{rb676, "User-agent: *\nDisallow: /p/\nAllow: /*.html\nContent-Usage: /p/ train-ai=n\n", nil},

		// RB677: Cloudflare's managed group in front of the site's own.
		{rb677, "User-Agent: *\nContent-signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: search=yes, ai-train=yes, ai-input=yes\nDisallow: /admin/\n",
			[]string{`9:1 Content-Signal for "*" already given at line 2, in an earlier group: RFC 9309 robots merge the groups and combine the signals, the most restrictive winning, and read search=yes, ai-input=yes, ai-train=no; first-match robots read only line 2 (2: the first Content-Signal)`}},
		{rb677, "User-agent: *\nContent-Signal: search=yes\nContent-Signal: ai-train=no\nAllow: /\n",
			[]string{`3:1 Content-Signal already given at line 2 in this group: robots combine the two, the most restrictive value of each signal winning, and read search=yes, ai-train=no (2: the first Content-Signal)`}},
		{rb677, "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nContent-Signal: search=yes, ai-train=no\nDisallow: /\n", nil},

		// RB678: relative, empty, other scheme; absolute http(s) is fine.
		{rb678, "License: /license.xml\nLicense:\nLicense: ftp://example.com/l.xml\nLicense: https://example.com/l.xml\nLicense: http://rsl.example/l\n",
			[]string{
				`1:10 License must be an absolute URL ("https://host/…", RSL 1.0), not "/license.xml" [FX42] "License: https://example.com/license.xml\nLicense:\nLicense: ftp://example.com/l.xml\nLicense: https://example.com/l.xml\nLicense: http://rsl.example/l\n"`,
				`2:9 License has no value: write the absolute URL of the licence (RSL 1.0)`,
				`3:10 License URL uses ftp:, but RSL 1.0 wants an http or https URL`,
			}},

		// RB679: crawl lines of control tokens; Google-Extended's
		// Crawl-delay is RB645's, and Yandex is no control token.
		{rb679, "User-agent: Applebot-Extended\nDisallow: /\nCrawl-delay: 10\nRequest-rate: 1/10s\n\nUser-agent: Google-Extended\nDisallow: /\nCrawl-delay: 5\nVisit-time: 0100-0500\n",
			[]string{
				`3:1 Crawl-delay has no effect: no robot fetches as Applebot-Extended, a usage control token; Applebot fetches under its own group`,
				`4:1 Request-rate has no effect: no robot fetches as Applebot-Extended, a usage control token; Applebot fetches under its own group`,
				`9:1 Visit-time has no effect: no robot fetches as Google-Extended, a usage control token; Googlebot fetches under its own group`,
			}},
		{rb679, "User-agent: Applebot-Extended\nUser-agent: GPTBot\nDisallow: /\nCrawl-delay: 10\n\nUser-agent: Yandex\nCrawl-delay: 2\n", nil},

		// RB680: a control token disallowed while its crawlers are blocked.
		{rb680, "User-agent: Applebot\nDisallow: /\n\nUser-agent: Applebot-Extended\nDisallow: /\n",
			[]string{`4:1 Applebot-Extended is disallowed, but Applebot, whose fetches it governs, is blocked from the whole site: nothing is fetched for it to withhold from ai-train (2: the rule that blocks Applebot)`}},
		{rb680, "User-agent: *\nDisallow: /\n\nUser-agent: Google-Extended\nDisallow: /\n",
			[]string{`4:1 Google-Extended is disallowed, but Googlebot, Googlebot-Image, Googlebot-News and Googlebot-Video, whose fetches it governs, are blocked from the whole site: nothing is fetched for it to withhold from ai-input and ai-train (2: the rule that blocks Googlebot)`}},
		// Googlebot-Image may still fetch; Applebot may fetch part; the
		// token is not disallowed; it has no group of its own.
		{rb680, "User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Image\nAllow: /\n\nUser-agent: Google-Extended\nDisallow: /\n", nil},
		{rb680, "User-agent: Applebot\nDisallow: /\nAllow: /public/\n\nUser-agent: Applebot-Extended\nDisallow: /\n", nil},
		{rb680, "User-agent: Applebot\nDisallow: /\n\nUser-agent: Applebot-Extended\nAllow: /\n", nil},
		{rb680, "User-agent: Applebot\nDisallow: /\n\nUser-agent: Applebot-Extended\nDisallow: /news/\n",
			[]string{`4:1 Applebot-Extended is partly disallowed, but Applebot, whose fetches it governs, is blocked from the whole site: nothing is fetched for it to withhold from ai-train (2: the rule that blocks Applebot)`}},
		{rb680, "User-agent: *\nDisallow: /\n", nil},
	} {
		got := findings(t, tc.c, tc.src)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s on %q:\n%s\nwant:\n%s", tc.c.Code, tc.src, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestContentSignalValues holds RB672 to package aipref's reading: the
// problems it finds, with what to write, and the keys it does not know.
func TestContentSignalValues(t *testing.T) {
	src := "User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nContent-Signal: search=allow, ai-train=false\nContent-Signal: ai_input=no, tdm=no\nContent-Signal: search=yes; ai-train=no\nContent-Signal:\nDisallow:\n"
	want := []string{
		`3:24 search takes yes or no, not "allow"; the signal is not given; write "search=yes" [FX41] "User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nContent-Signal: search=yes, ai-train=false\nContent-Signal: ai_input=no, tdm=no\nContent-Signal: search=yes; ai-train=no\nContent-Signal:\nDisallow:\n"`,
		`3:40 ai-train takes yes or no, not "false"; the signal is not given; write "ai-train=no" [FX41] "User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nContent-Signal: search=allow, ai-train=no\nContent-Signal: ai_input=no, tdm=no\nContent-Signal: search=yes; ai-train=no\nContent-Signal:\nDisallow:\n"`,
		`4:17 ai_input is not a Content Signals key, which are search, ai-input, ai-train and use; did you mean ai-input?`,
		`4:30 tdm is not a Content Signals key (search, ai-input, ai-train, use): robots ignore it`,
		`5:24 search takes yes or no, not "yes; ai-train=no"; the signal is not given; entries are separated by commas`,
		`6:16 Content-Signal has no value: it gives no signal`,
	}
	if got := findings(t, rb672, src); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("RB672:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestKeyOffset holds keyOffset to keys as keys, not inside other words.
func TestKeyOffset(t *testing.T) {
	for _, tc := range []struct {
		v, key string
		want   int
	}{
		{"tdm=no", "tdm", 0},
		{"search=yes, tdm=no", "tdm", 12},
		{"xtdm=1, tdm", "tdm", 8},
		{"a=tdm, tdm;x", "tdm", 7},
		{"nothing", "tdm", 0},
	} {
		if got := keyOffset(tc.v, tc.key); got != tc.want {
			t.Errorf("keyOffset(%q, %q) = %d, want %d", tc.v, tc.key, got, tc.want)
		}
	}
}
