package agents

import (
	"bytes"
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/lines"
)

// decodeStrict decodes the embedded data the way the tests demand: no
// unknown fields, nothing after the array.
func decodeStrict(t *testing.T) []Robot {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(robotsJSON))
	dec.DisallowUnknownFields()
	var robots []Robot
	if err := dec.Decode(&robots); err != nil {
		t.Fatalf("robots.json: %v", err)
	}
	if dec.More() {
		t.Fatal("robots.json: data after the array")
	}
	return robots
}

func TestEmbeddedData(t *testing.T) {
	robots := decodeStrict(t)
	if len(robots) < 100 {
		t.Fatalf("robots.json has %d robots, want at least 100", len(robots))
	}
	if _, err := decode(robotsJSON); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if got := len(All()); got != len(robots) {
		t.Fatalf("All() has %d robots, robots.json %d: an entry was dropped", got, len(robots))
	}
	seen := make(map[string]string)
	for _, r := range robots {
		key := strings.ToLower(r.Token)
		if prev, dup := seen[key]; dup {
			t.Errorf("token %q duplicates %q (tokens compare case-insensitively)", r.Token, prev)
		}
		seen[key] = r.Token
	}
	for _, r := range robots {
		t.Run(r.Token, func(t *testing.T) { checkRobot(t, r) })
	}
}

func checkRobot(t *testing.T, r Robot) {
	if r.Token == "" || r.Name == "" || r.Owner == "" || r.Source == "" {
		t.Errorf("empty Token, Name, Owner or Source: %+v", r)
	}
	if strings.ContainsAny(r.Token, " \t/;()") || len(r.Token) > 64 {
		t.Errorf("token %q contains a User-Agent delimiter or is longer than 64 bytes", r.Token)
	}
	if r.Purpose < Search || r.Purpose > Other {
		t.Errorf("Purpose = %v, want a defined purpose", r.Purpose)
	}
	if r.Obeys > ObeysPartial {
		t.Errorf("Obeys = %v", r.Obeys)
	}
	if r.Obeys == ObeysPartial && r.ObeysNote == "" {
		t.Errorf("Obeys is partial but ObeysNote is empty")
	}
	if !slices.Contains(profileNames, r.Profile) {
		t.Errorf("Profile = %q, want one of %q", r.Profile, profileNames)
	}
	if !slices.Contains(fetchNames, r.Fetch) {
		t.Errorf("Fetch = %q, want one of %q", r.Fetch, fetchNames)
	}
	for _, f := range r.Fallback {
		if equalFold(f, r.Token) {
			t.Errorf("Fallback %q names the robot itself", f)
		}
		if _, ok := Lookup(f); !ok {
			t.Errorf("Fallback %q is not in the registry", f)
		}
	}
	if r.Successor != "" {
		if !r.Retired {
			t.Errorf("Successor %q set on a robot that is not retired", r.Successor)
		}
		if s, ok := Lookup(r.Successor); !ok || s.Retired {
			t.Errorf("Successor %q is not a known, current token", r.Successor)
		}
	}
	if r.Doc != "" {
		u, err := url.Parse(r.Doc)
		if err != nil || !u.IsAbs() || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			t.Errorf("Doc %q is not an absolute http(s) URL (err %v)", r.Doc, err)
		}
	}
	if r.TokenOnly && len(r.UserAgents) > 0 {
		t.Errorf("token-only robot lists user agents %q", r.UserAgents)
	}
	for _, ua := range r.UserAgents {
		if got := HeaderToken(ua); !equalFold(got, r.Token) {
			t.Errorf("HeaderToken(%q) = %q, want %q", ua, got, r.Token)
		}
		if got, ok := FromUserAgent(ua); !ok || got.Token != r.Token {
			t.Errorf("FromUserAgent(%q) = %q, %v; want %q", ua, got.Token, ok, r.Token)
		}
	}
	// RFC 9309 §2.2.1: tokens are [A-Za-z_-]+. For the others, Notes must
	// say what an RFC 9309 or Google parser compares instead.
	if p := lines.ProductToken(r.Token); p != r.Token {
		want := `"` + p + `"`
		if p == "" {
			want = "empty token"
		}
		if !strings.Contains(r.Notes, "RFC 9309") || !strings.Contains(r.Notes, want) {
			t.Errorf("invalid RFC 9309 token; Notes %q should mention RFC 9309 and %s", r.Notes, want)
		}
	}
	// Operator-wide assignments.
	switch r.Owner {
	case "Google":
		if r.Profile != "google" || r.Fetch != "google" {
			t.Errorf("Google robot with profile %q, fetch %q", r.Profile, r.Fetch)
		}
	case "Microsoft":
		if r.Profile != "bing" || r.Fetch != "bing" {
			t.Errorf("Microsoft robot with profile %q, fetch %q", r.Profile, r.Fetch)
		}
	case "Yandex":
		want := []string{"Yandex"}
		if r.Token == "Yandex" {
			want = nil
		}
		if r.Profile != "yandex" || r.Fetch != "yandex" || !slices.Equal(r.Fallback, want) {
			t.Errorf("Yandex robot with profile %q, fetch %q, fallback %q; want yandex, yandex, %q",
				r.Profile, r.Fetch, r.Fallback, want)
		}
	}
}

// TestCheckerTokens checks that every token the checker knows (the
// catalogue's list of known crawler tokens) is in the registry.
func TestCheckerTokens(t *testing.T) {
	tokens := []string{
		"Googlebot", "Googlebot-Image", "Googlebot-News", "Googlebot-Video",
		"Storebot-Google", "GoogleOther", "Google-InspectionTool", "Google-Extended",
		"AdsBot-Google", "AdsBot-Google-Mobile", "Mediapartners-Google", "APIs-Google",
		"FeedFetcher-Google", "Bingbot", "msnbot", "AdIdxBot", "BingPreview", "Slurp", "DuckDuckBot",
		"Baiduspider", "Baiduspider-image", "Yandex", "YandexBot", "YandexImages", "YandexMobileBot",
		"SeznamBot", "Applebot", "Applebot-Extended", "facebookexternalhit", "Twitterbot",
		"LinkedInBot", "AhrefsBot", "SemrushBot", "MJ12bot", "DotBot", "PetalBot", "Sogou", "360Spider",
		"Yeti", "Exabot", "CCBot", "GPTBot", "ChatGPT-User", "OAI-SearchBot", "ClaudeBot", "anthropic-ai",
		"PerplexityBot", "Bytespider", "Amazonbot", "ia_archiver",
	}
	for _, tok := range tokens {
		if _, ok := Lookup(tok); !ok {
			t.Errorf("Lookup(%q): not found", tok)
		}
	}
}

// TestBriefTokens checks tokens the registry must carry beyond the
// checker's list: Google's crawler list, Mandelbot, and the AI crawlers
// of ai.robots.txt.
func TestBriefTokens(t *testing.T) {
	tests := []struct {
		token   string
		retired bool
	}{
		{"GoogleOther-Image", false}, {"GoogleOther-Video", false}, {"Google-CloudVertexBot", false},
		{"Google-Safety", false}, {"Google-Site-Verification", false}, {"Google-Read-Aloud", false},
		{"GoogleProducer", false}, {"Google-CWS", false}, {"Google-NotebookLM", false},
		{"Google-Agent", false}, {"YandexVideo", false}, {"YandexMedia", false}, {"YandexNews", false},
		{"YandexDirect", false}, {"YandexAdditional", false}, {"YandexAdditionalBot", false},
		{"Claude-SearchBot", false}, {"Claude-User", false}, {"Perplexity-User", false},
		{"meta-externalagent", false}, {"meta-externalfetcher", false}, {"AI2Bot", false},
		{"img2dataset", false}, {"Mandelbot", false},
		{"Googlebot-Mobile", true}, {"anthropic-ai", true}, {"Claude-Web", true},
	}
	for _, tt := range tests {
		r, ok := Lookup(tt.token)
		if !ok || r.Retired != tt.retired {
			t.Errorf("Lookup(%q) = retired %v, found %v; want retired %v, found", tt.token, r.Retired, ok, tt.retired)
		}
	}
	for _, tok := range []string{"anthropic-ai", "Claude-Web"} {
		if r, _ := Lookup(tok); r.Successor != "ClaudeBot" {
			t.Errorf("%s: Successor = %q, want ClaudeBot", tok, r.Successor)
		}
	}
	m, _ := Lookup("Mandelbot")
	if m.Owner != "Fractle" || m.Purpose != Search || m.Profile != "rfc9309" || m.Fetch != "mandelbot" || !strings.Contains(m.Source, "Mandelbot's robots.txt documentation") {
		t.Errorf("Mandelbot = %+v", m)
	}
	for _, tok := range []string{"Baiduspider", "Baiduspider-image"} {
		if r, _ := Lookup(tok); r.Profile != "draft1996" {
			t.Errorf("%s: Profile = %q, want draft1996", tok, r.Profile)
		}
	}
	for _, tok := range []string{"Google-Extended", "Applebot-Extended"} {
		if r, _ := Lookup(tok); !r.TokenOnly {
			t.Errorf("%s: TokenOnly not set", tok)
		}
	}
}

func TestAllSortedAndCopied(t *testing.T) {
	all := All()
	if !slices.IsSortedFunc(all, func(a, b Robot) int {
		return strings.Compare(lower(a.Token), lower(b.Token))
	}) {
		t.Error("All() is not sorted by token, ASCII case-insensitively")
	}
	want, _ := Lookup("Googlebot-Image")
	wantControl, _ := Lookup("Google-Extended")
	for i := range all {
		all[i].Token = "changed"
		if all[i].Fallback != nil {
			all[i].Fallback[0] = "changed"
		}
		if all[i].UserAgents != nil {
			all[i].UserAgents[0] = "changed"
		}
		if c := all[i].Controls; c != nil {
			c.Governs[0] = "changed"
			c.Purposes[0] = "changed"
			c.Governs = nil
		}
	}
	r, _ := Lookup("Googlebot-Image")
	r.Fallback[0] = "changed again"
	if got, _ := Lookup("Googlebot-Image"); !reflect.DeepEqual(got, want) {
		t.Errorf("after modifying results, Lookup = %+v, want %+v", got, want)
	}
	for _, c := range ControlsFor("Googlebot") {
		c.Controls.Governs[0] = "changed again"
	}
	if got, _ := Lookup("Google-Extended"); !reflect.DeepEqual(got, wantControl) || got.Controls.Governs[0] != "Googlebot" {
		t.Errorf("after modifying results, Lookup = %+v, want %+v", got, wantControl)
	}
}

// usageOrder is the usage vocabulary, in the order Control.Purposes and
// Purpose.Usage list it.
var usageOrder = []string{"search", "ai-input", "ai-train"}

// TestControlsData holds the usage control tokens to their sources and
// every Control to the registry: the tokens it governs exist and are its
// operator's robots, and its purposes are usage purposes, in order.
func TestControlsData(t *testing.T) {
	want := map[string]Control{
		// https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers#google-extended:
		// training Gemini models, and grounding with the Search index.
		"Google-Extended": {
			Governs:  []string{"Googlebot", "Googlebot-Image", "Googlebot-News", "Googlebot-Video"},
			Purposes: []string{"ai-input", "ai-train"},
		},
		// https://support.apple.com/en-us/119829: training Apple's
		// foundation models, from what Applebot crawls.
		"Applebot-Extended": {Governs: []string{"Applebot"}, Purposes: []string{"ai-train"}},
	}
	for _, r := range All() {
		c := r.Controls
		w, ok := want[r.Token]
		switch {
		case c == nil && !ok:
			continue
		case c == nil:
			t.Errorf("%s: no Controls, want %+v", r.Token, w)
			continue
		case !ok:
			t.Errorf("%s: Controls %+v on a token with no documented usage control", r.Token, *c)
		case !reflect.DeepEqual(*c, w):
			t.Errorf("%s: Controls = %+v, want %+v", r.Token, *c, w)
		}
		if !r.TokenOnly {
			t.Errorf("%s: a usage control token without TokenOnly", r.Token)
		}
		if len(c.Governs) == 0 || len(c.Purposes) == 0 {
			t.Errorf("%s: Controls governs %q, withholds %q: want both", r.Token, c.Governs, c.Purposes)
		}
		for _, g := range c.Governs {
			gr, ok := Lookup(g)
			switch {
			case !ok:
				t.Errorf("%s: Governs %q, not in the registry", r.Token, g)
			case gr.Token != g:
				t.Errorf("%s: Governs %q, spelled %q in the registry", r.Token, g, gr.Token)
			case gr.Owner != r.Owner:
				t.Errorf("%s: Governs %s of %s, not of %s", r.Token, g, gr.Owner, r.Owner)
			case gr.Controls != nil || gr.TokenOnly:
				t.Errorf("%s: Governs %s, which fetches nothing", r.Token, g)
			}
		}
		last := -1
		for _, u := range c.Purposes {
			i := slices.Index(usageOrder, u)
			if i <= last {
				t.Errorf("%s: Purposes %q, want usage purposes of %q, each once, in that order", r.Token, c.Purposes, usageOrder)
				break
			}
			last = i
		}
	}
	// Yandex has no crawler of its own, but it is an umbrella token for
	// group selection, not a usage control.
	if y, _ := Lookup("Yandex"); !y.TokenOnly || y.Controls != nil {
		t.Errorf("Yandex: TokenOnly %v, Controls %+v; want token-only, no Controls", y.TokenOnly, y.Controls)
	}
}

func TestControlsFor(t *testing.T) {
	tests := []struct {
		token string
		want  []string
	}{
		{"Googlebot", []string{"Google-Extended"}},
		{"googlebot", []string{"Google-Extended"}},
		// Named by Google-Extended's Governs, and falls back to Googlebot.
		{"Googlebot-Image", []string{"Google-Extended"}},
		{"Googlebot-News", []string{"Google-Extended"}},
		{"Googlebot-Video", []string{"Google-Extended"}},
		// Retired, governed through its fallback to Googlebot.
		{"Googlebot-Mobile", []string{"Google-Extended"}},
		// Applebot reads Googlebot's group when none names it, but Google's
		// control speaks for Google's use only.
		{"Applebot", []string{"Applebot-Extended"}},
		{"APPLEBOT", []string{"Applebot-Extended"}},
		// Google names no other crawler of its own for Google-Extended.
		{"GoogleOther", nil},
		{"Storebot-Google", nil},
		{"Google-CloudVertexBot", nil},
		{"AdsBot-Google", nil},
		{"GPTBot", nil},
		{"ClaudeBot", nil},
		{"bingbot", nil},
		{"Yandex", nil},
		{"YandexBot", nil},
		{"Google-Extended", nil},
		{"Applebot-Extended", nil},
		{"NoSuchBot", nil},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range ControlsFor(tt.token) {
			if r.Controls == nil {
				t.Errorf("ControlsFor(%q) gives %s, which has no Controls", tt.token, r.Token)
			}
			got = append(got, r.Token)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ControlsFor(%q) = %q, want %q", tt.token, got, tt.want)
		}
	}
	// The rule on a registry of our own: the token or a fallback, among the
	// robots of the control's owner, in token order.
	reg := newRegistry([]Robot{
		{Token: "X", Owner: "A"},
		{Token: "X-Img", Owner: "A", Fallback: []string{"X"}},
		{Token: "Y", Owner: "B", Fallback: []string{"X"}},
		{Token: "Z", Owner: "A"},
		{Token: "X-Ctl2", Owner: "A", Controls: &Control{Governs: []string{"x-img"}, Purposes: []string{"ai-input"}}},
		{Token: "X-Ctl", Owner: "A", Controls: &Control{Governs: []string{"X"}, Purposes: []string{"ai-train"}}},
	})
	for _, tt := range []struct {
		token string
		want  []string
	}{
		{"X", []string{"X-Ctl"}},
		{"x-img", []string{"X-Ctl", "X-Ctl2"}},
		{"Y", nil},
		{"Z", nil},
	} {
		var got []string
		for _, r := range reg.controlsFor(tt.token) {
			got = append(got, r.Token)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("controlsFor(%q) = %q, want %q", tt.token, got, tt.want)
		}
	}
}

// TestPurposeUsage holds the mapping of every purpose to the usage
// purposes. A purpose added to the registry must be added here, with the
// decision of what its fetches serve.
func TestPurposeUsage(t *testing.T) {
	want := map[Purpose][]string{
		Search:     {"search"},
		AITraining: {"ai-train"},
		AISearch:   {"ai-input"},
		AIUser:     {"ai-input"},
		Ads:        nil,
		SEO:        nil,
		Archive:    nil,
		Social:     nil,
		Other:      nil,
	}
	for p := Search; int(p) < len(purposeNames); p++ {
		w, ok := want[p]
		if !ok {
			t.Errorf("purpose %v has no usage decision in this test", p)
			continue
		}
		got := p.Usage()
		if !slices.Equal(got, w) {
			t.Errorf("%v.Usage() = %q, want %q", p, got, w)
		}
		for _, u := range got {
			if !slices.Contains(usageOrder, u) {
				t.Errorf("%v.Usage() = %q: %q is not a usage purpose", p, got, u)
			}
		}
		if len(got) > 0 {
			got[0] = "changed"
			if p.Usage()[0] == "changed" {
				t.Errorf("%v.Usage() shares its array", p)
			}
		}
	}
	for _, r := range All() {
		if _, ok := want[r.Purpose]; !ok {
			t.Errorf("%s: purpose %v has no usage decision", r.Token, r.Purpose)
		}
	}
	if got := Purpose(0).Usage(); got != nil {
		t.Errorf("Purpose(0).Usage() = %q, want nil", got)
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		in, want string // want "" means not found
	}{
		{"Googlebot", "Googlebot"},
		{"googlebot", "Googlebot"},
		{"GOOGLEBOT-IMAGE", "Googlebot-Image"},
		{"BingBot", "bingbot"},
		{"yandexbot", "YandexBot"},
		{"META-EXTERNALAGENT", "meta-externalagent"},
		{"mj12BOT", "MJ12bot"},
		{"exabot", "Exabot"},
		{"", ""},
		{"Googlebo", ""},
		{"Googlebot/2.1", ""},
		{" Googlebot", ""},
		{"\u212Aaudebot", ""}, // Kelvin sign: only ASCII case folds
		{"NoSuchBot", ""},
	}
	for _, tt := range tests {
		r, ok := Lookup(tt.in)
		if ok != (tt.want != "") || r.Token != tt.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tt.in, r.Token, ok, tt.want)
		}
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		token string
		want  []string
	}{
		{"Googlebot", []string{"Googlebot"}},
		{"Googlebot-Image", []string{"Googlebot-Image", "Googlebot"}},
		{"Googlebot-Video", []string{"Googlebot-Video", "Googlebot"}},
		{"Googlebot-News", []string{"Googlebot-News", "Googlebot"}},
		{"Storebot-Google", []string{"Storebot-Google"}},
		{"YandexBot", []string{"YandexBot", "Yandex"}},
		{"YandexImages", []string{"YandexImages", "Yandex"}},
		{"Yandex", []string{"Yandex"}},
		{"Applebot", []string{"Applebot", "Googlebot"}},
		{"Baiduspider-image", []string{"Baiduspider-image", "Baiduspider"}},
		{"GPTBot", []string{"GPTBot"}},
	}
	for _, tt := range tests {
		r, ok := Lookup(tt.token)
		if !ok {
			t.Errorf("Lookup(%q): not found", tt.token)
			continue
		}
		if got := r.Tokens(); !slices.Equal(got, tt.want) {
			t.Errorf("%s.Tokens() = %q, want %q", tt.token, got, tt.want)
		}
	}
	r, _ := Lookup("Googlebot-Image")
	r.Tokens()[1] = "changed"
	if r.Fallback[0] != "Googlebot" {
		t.Error("Tokens() shares its array with Fallback")
	}
}

func TestIgnoresGlobal(t *testing.T) {
	var got []string
	for _, r := range All() {
		if r.IgnoresGlobal {
			got = append(got, r.Token)
		}
	}
	want := []string{"AdsBot-Google", "AdsBot-Google-Mobile", "APIs-Google", "Mediapartners-Google"}
	if !slices.Equal(got, want) {
		t.Errorf("robots ignoring \"*\" = %q, want %q", got, want)
	}
}

func TestByPurpose(t *testing.T) {
	tests := []struct {
		p    Purpose
		want []string
	}{
		{AITraining, []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended"}},
		{AISearch, []string{"OAI-SearchBot", "PerplexityBot"}},
		{AIUser, []string{"ChatGPT-User", "Claude-User", "Perplexity-User"}},
		{Search, []string{"Googlebot", "bingbot", "YandexBot", "Mandelbot"}},
		{Ads, []string{"AdsBot-Google", "Mediapartners-Google", "AdIdxBot", "YandexDirect"}},
		{SEO, []string{"AhrefsBot", "SemrushBot", "MJ12bot", "DotBot", "rogerbot"}},
		{Archive, []string{"ia_archiver", "archive.org_bot"}},
		{Social, []string{"facebookexternalhit", "Twitterbot", "LinkedInBot"}},
	}
	for _, tt := range tests {
		got := ByPurpose(tt.p)
		var tokens []string
		for _, r := range got {
			if r.Purpose != tt.p {
				t.Errorf("ByPurpose(%v) returned %s with purpose %v", tt.p, r.Token, r.Purpose)
			}
			tokens = append(tokens, r.Token)
		}
		for _, w := range tt.want {
			if !slices.Contains(tokens, w) {
				t.Errorf("ByPurpose(%v) lacks %s", tt.p, w)
			}
		}
		if !slices.IsSortedFunc(got, func(a, b Robot) int { return strings.Compare(lower(a.Token), lower(b.Token)) }) {
			t.Errorf("ByPurpose(%v) is not sorted", tt.p)
		}
	}
	if got := ByPurpose(0); len(got) != 0 {
		t.Errorf("ByPurpose(0) = %d robots, want none", len(got))
	}
}

func TestDefault(t *testing.T) {
	got := Default()
	var tokens []string
	profiles := make(map[string]bool)
	for _, r := range got {
		if _, ok := Lookup(r.Token); !ok {
			t.Errorf("Default() lists unknown token %q", r.Token)
		}
		if slices.Contains(tokens, r.Token) {
			t.Errorf("Default() lists %q twice", r.Token)
		}
		tokens = append(tokens, r.Token)
		profiles[r.Profile] = true
	}
	for _, p := range []string{"google", "rfc9309", "bing", "yandex", "draft1996"} {
		if !profiles[p] {
			t.Errorf("Default() has no robot with profile %q", p)
		}
	}
	want := []string{
		"Googlebot", "bingbot", "YandexBot", "Baiduspider", "Applebot", "DuckDuckBot",
		"GPTBot", "OAI-SearchBot", "ChatGPT-User", "ClaudeBot", "Claude-User", "PerplexityBot",
		"CCBot", "Google-Extended", "Applebot-Extended", "Bytespider", "meta-externalagent",
		"Amazonbot", "Mandelbot",
	}
	if len(tokens) < len(want) || !slices.Equal(tokens[:len(want)], want) {
		t.Errorf("Default() = %q, want it to start with %q", tokens, want)
	}
	if !reflect.DeepEqual(Default(), got) {
		t.Error("Default() is not stable")
	}
}

func TestPurposeText(t *testing.T) {
	for p := Search; p <= Other; p++ {
		text, err := p.MarshalText()
		if err != nil || string(text) != p.String() {
			t.Errorf("%v.MarshalText() = %q, %v", p, text, err)
		}
		var q Purpose
		if err := q.UnmarshalText([]byte(strings.ToUpper(p.String()))); err != nil || q != p {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", strings.ToUpper(p.String()), q, err, p)
		}
	}
	tests := []struct {
		in   string
		want Purpose
		ok   bool
	}{
		{"search", Search, true},
		{"AI-Training", AITraining, true},
		{"ai-user", AIUser, true},
		{"SEO", SEO, true},
		{"", 0, false},
		{"training", 0, false},
		{"ai_training", 0, false},
		{" search", 0, false},
	}
	for _, tt := range tests {
		got, err := ParsePurpose(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParsePurpose(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	if s := Purpose(0).String(); s != "Purpose(0)" {
		t.Errorf("Purpose(0).String() = %q", s)
	}
	if _, err := Purpose(42).MarshalText(); err == nil {
		t.Error("Purpose(42).MarshalText() succeeded")
	}
	var p Purpose = Ads
	if err := p.UnmarshalText([]byte("nonsense")); err == nil || p != Ads {
		t.Errorf("UnmarshalText(nonsense) = %v, left %v", err, p)
	}
}

func TestObeysText(t *testing.T) {
	for o, want := range map[Obeys]string{ObeysUnknown: "unknown", ObeysYes: "yes", ObeysNo: "no", ObeysPartial: "partial"} {
		text, err := o.MarshalText()
		if err != nil || string(text) != want || o.String() != want {
			t.Errorf("Obeys %d: MarshalText = %q, %v; String = %q; want %q", o, text, err, o.String(), want)
		}
		var back Obeys = 99
		if err := back.UnmarshalText([]byte(strings.ToUpper(want))); err != nil || back != o {
			t.Errorf("UnmarshalText(%q) = %v, %v", strings.ToUpper(want), back, err)
		}
	}
	var o Obeys
	if err := o.UnmarshalText([]byte("maybe")); err == nil {
		t.Error("UnmarshalText(maybe) succeeded")
	}
	if _, err := Obeys(9).MarshalText(); err == nil {
		t.Error("Obeys(9).MarshalText() succeeded")
	}
}

func TestRobotJSON(t *testing.T) {
	r, _ := Lookup("GPTBot")
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"token":"GPTBot"`, `"purpose":"ai-training"`, `"obeys":"yes"`, `"profile":"rfc9309"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("json.Marshal(GPTBot) = %s, lacks %s", b, want)
		}
	}
	var back Robot
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, r) {
		t.Errorf("round trip = %+v, %v; want %+v", back, err, r)
	}
	if _, err := json.Marshal(Robot{}); err != nil {
		t.Errorf("json.Marshal(Robot{}): %v", err)
	}
	if bytes.Contains(b, []byte(`"controls"`)) {
		t.Errorf("json.Marshal(GPTBot) = %s: a nil Controls is shown", b)
	}
	ge, _ := Lookup("Google-Extended")
	b = must(json.Marshal(ge))
	if want := `"controls":{"governs":["Googlebot","Googlebot-Image","Googlebot-News","Googlebot-Video"],"purposes":["ai-input","ai-train"]}`; !bytes.Contains(b, []byte(want)) {
		t.Errorf("json.Marshal(Google-Extended) = %s, lacks %s", b, want)
	}
	back = Robot{}
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, ge) {
		t.Errorf("round trip = %+v, %v; want %+v", back, err, ge)
	}
}

const chromeWindows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"

var productTokenTests = []struct {
	ua, want string
}{
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
	{"Googlebot-Image/1.0", "Googlebot-Image"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "GPTBot"},
	{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/W.X.Y.Z Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
	{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"},
	{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "Applebot"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", "ChatGPT-User"},
	{"Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "Slurp"},
	{"Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)", "Bytespider"}, // version-less
	{"Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)", "Sogou"},
	{"Baiduspider-image+(+http://www.baidu.com/search/spider.htm)", "Baiduspider-image"},
	{"Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/50.0.2661.102 Safari/537.36; 360Spider", "360Spider"},
	// The documented token wins over the RFC 9309 reduction ("MJ").
	{"MJ12bot/v1.4.8", "MJ12bot"},
	{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "MJ12bot"},
	// The longest known token wins; the header's spelling is kept.
	{"Googlebot/2.1 Googlebot-Image/1.0", "Googlebot-Image"},
	{"Mozilla/5.0 (compatible; BINGBOT/2.0)", "BINGBOT"},
	{"   Googlebot", "Googlebot"},
	// A known token inside a URL or a longer name does not count.
	{"FooBot/1.0 (+http://example.com/Googlebot)", "FooBot"},
	{"Mozilla/5.0 (compatible; Googlebotx/1.0)", "Googlebotx"},
	// Unknown robots: the first non-browser product, reduced.
	{"FooCrawler/1.0 (+http://foo.example)", "FooCrawler"},
	{"FooBot", "FooBot"},
	{"Mozilla/5.0 (compatible) ExampleBot", "ExampleBot"},
	{"ExampleBot (+https://example.com/bot)", "ExampleBot"},
	{"AB42bot/1.0", "AB"},
	{"AdsBot-Google-Mobile-Apps", "AdsBot-Google-Mobile-Apps"},
	{"360Browser/1.0 NiceBot/2", "NiceBot"},
	{"Mozilla/5.0 (compatible; NewBot/1.0; +https://new.example/bot)", "NewBot"},
	{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/W.X.Y.Z Mobile Safari/537.36 (compatible; OtherBot)", "OtherBot"},
	// Browsers and garbage.
	{"", ""},
	{chromeWindows, ""},
	{chromeWindows + " Edg/120.0.0.0", ""},
	{"Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0", ""},
	{"Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)", ""},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", ""},
	{"12345/6.7", ""},
	{"((((((", ""},
	{"\x00\xff\xfe", ""},
	{"+http://example.com/", ""},
}

func TestHeaderToken(t *testing.T) {
	for _, tt := range productTokenTests {
		if got := HeaderToken(tt.ua); got != tt.want {
			t.Errorf("HeaderToken(%q) = %q, want %q", tt.ua, got, tt.want)
		}
	}
}

func TestFromUserAgent(t *testing.T) {
	tests := []struct{ ua, want string }{
		{"Mozilla/5.0 (compatible; BINGBOT/2.0)", "bingbot"},
		{"Googlebot-Image/1.0", "Googlebot-Image"},
		{"Mozilla/5.0 (compatible; Exabot/3.0; +http://www.exabot.com/go/robot)", "Exabot"},
		{"FooCrawler/1.0", ""},
		{chromeWindows, ""},
		{"", ""},
	}
	for _, tt := range tests {
		r, ok := FromUserAgent(tt.ua)
		if ok != (tt.want != "") || r.Token != tt.want {
			t.Errorf("FromUserAgent(%q) = %q, %v; want %q", tt.ua, r.Token, ok, tt.want)
		}
	}
}

func TestHeaderTokenBounded(t *testing.T) {
	tests := []struct {
		name, ua, want string
	}{
		{"token after the cap", strings.Repeat("x ", maxUserAgent) + "Googlebot/2.1", "x"},
		{"long name", strings.Repeat("a", 10000), strings.Repeat("a", maxUserAgent)},
		{"open parens", strings.Repeat("(", 1<<20), ""},
		{"delimiters", strings.Repeat("; (", 1<<20), ""},
		{"nested comments", strings.Repeat("(a ", 1<<19) + strings.Repeat(")", 1<<19), ""},
		// 4096 bytes end inside a word: what is left of it is a product.
		{"compatible", strings.Repeat("compatible; ", 1<<18), "comp"},
		{"long run after delimiter", strings.Repeat(" "+strings.Repeat("G", 200), 1<<12), strings.Repeat("G", 200)},
	}
	for _, tt := range tests {
		got := HeaderToken(tt.ua)
		if got != tt.want {
			t.Errorf("%s: HeaderToken = %.40q (len %d), want %.40q (len %d)", tt.name, got, len(got), tt.want, len(tt.want))
		}
	}
	allocs := testing.AllocsPerRun(10, func() { HeaderToken(productTokenTests[3].ua) })
	if allocs > 0 {
		t.Errorf("HeaderToken allocates %v times per call, want 0", allocs)
	}
}

func TestBadData(t *testing.T) {
	for _, data := range []string{
		"",
		"not json",
		`[{"token":"X","owner":"O","purpose":"search","obeys":"yes","profile":"rfc9309","fetch":"rfc9309","source":"s","colour":"red"}]`,
		`[{"token":"X","owner":"O","purpose":"searching","obeys":"yes","profile":"rfc9309","fetch":"rfc9309","source":"s"}]`,
		`[] []`,
	} {
		reg := loadRegistry([]byte(data))
		if len(reg.all()) != 0 || len(reg.defaults()) != 0 || len(reg.byPurpose(Search)) != 0 {
			t.Errorf("loadRegistry(%q) is not empty", data)
		}
		if _, ok := reg.lookup("X"); ok {
			t.Errorf("loadRegistry(%q).lookup(X) succeeded", data)
		}
		// Without known tokens, HeaderToken still applies rules 2 and 3.
		if got := reg.productToken("Mozilla/5.0 (compatible; Googlebot/2.1)"); got != "Googlebot" {
			t.Errorf("empty registry: productToken = %q, want Googlebot", got)
		}
	}
	reg := newRegistry([]Robot{{Token: "b"}, {Token: "A"}, {Token: "a"}, {Token: ""}})
	var got []string
	for _, r := range reg.all() {
		got = append(got, r.Token)
	}
	if want := []string{"A", "b"}; !slices.Equal(got, want) {
		t.Errorf("newRegistry kept %q, want %q", got, want)
	}
}

func FuzzHeaderToken(f *testing.F) {
	for _, tt := range productTokenTests {
		f.Add(tt.ua)
	}
	for _, r := range All() {
		for _, ua := range r.UserAgents {
			f.Add(ua)
		}
	}
	f.Fuzz(func(t *testing.T, ua string) {
		got := HeaderToken(ua)
		if len(got) > len(ua) {
			t.Fatalf("HeaderToken(%q) = %q, longer than its input", ua, got)
		}
		if !strings.Contains(ua[:min(len(ua), maxUserAgent)], got) {
			t.Fatalf("HeaderToken(%q) = %q, not part of the first %d bytes", ua, got, maxUserAgent)
		}
		if got == "" {
			return
		}
		// Either an RFC 9309 token or a known robot's documented token
		// (such as MJ12bot), which may contain other characters.
		if lines.ProductToken(got) != got {
			if _, ok := Lookup(got); !ok {
				t.Fatalf("HeaderToken(%q) = %q, neither [A-Za-z_-]+ nor a known token", ua, got)
			}
		}
	})
}

func TestUserAgent(t *testing.T) {
	g, _ := Lookup("Googlebot")
	if ua := g.UserAgent(); !strings.Contains(ua, "Googlebot/2.1") || strings.Contains(ua, "W.X.Y.Z") {
		t.Errorf("Googlebot UA %q", ua)
	}
	if ua := (Robot{UserAgents: []string{"Mozilla/5.0 Chrome/W.X.Y.Z Safari/537.36 (compatible; X/1)"}}).UserAgent(); strings.Contains(ua, "W.X.Y.Z") || !strings.Contains(ua, "Chrome/130.0.0.0") {
		t.Errorf("placeholder UA %q", ua)
	}
	if ua := (Robot{Token: "Google-Extended"}).UserAgent(); ua != "" {
		t.Errorf("token-only UA %q", ua)
	}
}

// RFC 9309 §2.2.1 product tokens are [A-Za-z_-]+; robots whose tokens are
// not are read by whole name, and Reads says so.
func TestWholeName(t *testing.T) {
	for _, tt := range []struct {
		token string
		want  bool
	}{
		{"Googlebot", false},
		{"Googlebot-Image", false},
		{"meta-externalagent", false},
		{"A_b", false},
		{"MJ12bot", true},
		{"archive.org_bot", true},
		{"360Spider", true},
		{"img2dataset", true},
		{"Crawl4AI", true},
		{"Bot Name", true},
		{"", false},
	} {
		r := Robot{Token: tt.token}
		if got := r.WholeName(); got != tt.want {
			t.Errorf("Robot{Token: %q}.WholeName() = %v, want %v", tt.token, got, tt.want)
		}
		want := ReadsProductToken
		if tt.want {
			want = ReadsWholeName
		}
		if got := r.reads(); got != want {
			t.Errorf("Robot{Token: %q}.reads() = %q, want %q", tt.token, got, want)
		}
	}
	var got []string
	for _, r := range All() {
		want := ReadsProductToken
		if r.WholeName() {
			want = ReadsWholeName
			got = append(got, r.Token)
		}
		if r.Reads != want {
			t.Errorf("%s: Reads = %q, want %q", r.Token, r.Reads, want)
		}
	}
	want := []string{"360Spider", "AI2Bot", "AI2Bot-DeepResearchEval", "Ai2Bot-Dolma", "archive.org_bot",
		"Channel3Bot", "Crawl4AI", "img2dataset", "MJ12bot"}
	if !slices.Equal(got, want) {
		t.Errorf("robots read by whole name = %q, want %q", got, want)
	}
	// Reads is computed, whatever the data say.
	reg := newRegistry([]Robot{{Token: "MJ12bot", Reads: "product token"}, {Token: "GPTBot", Reads: "x"}})
	if r, _ := reg.lookup("mj12bot"); r.Reads != ReadsWholeName {
		t.Errorf("MJ12bot: Reads = %q, want %q", r.Reads, ReadsWholeName)
	}
	if r, _ := reg.lookup("gptbot"); r.Reads != ReadsProductToken {
		t.Errorf("GPTBot: Reads = %q, want %q", r.Reads, ReadsProductToken)
	}
	if b, _ := json.Marshal(Robot{Token: "x"}); bytes.Contains(b, []byte(`"reads"`)) {
		t.Errorf("json.Marshal(Robot{Token: x}) = %s: an empty Reads is shown", b)
	}
	if r, _ := Lookup("MJ12bot"); !bytes.Contains(must(json.Marshal(r)), []byte(`"reads":"whole name"`)) {
		t.Errorf("json.Marshal(MJ12bot) lacks \"reads\":\"whole name\"")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestClosest(t *testing.T) {
	for _, tt := range []struct {
		name string
		n    int
		want []string
	}{
		{"Gogglebot", 3, []string{"Googlebot"}},
		{"googlebot", 3, []string{"Googlebot"}}, // a token itself, at distance 0
		{"Googelbot", 3, []string{"Googlebot"}}, // two bytes swapped: one edit
		{"GTPBot", 3, []string{"GPTBot"}},
		{"mj12bto", 3, []string{"MJ12bot"}},
		{"archive.org-bot", 3, []string{"archive.org_bot"}},
		{"360spidr", 3, []string{"360Spider"}},
		{"YandexBots", 3, []string{"YandexBot"}}, // not Mandelbot, three edits away
		{"Googlebot-Imag", 3, []string{"Googlebot-Image"}},
		{"perplexity", 3, []string{"PerplexityBot"}}, // three edits: len/3
		{"Gogglebot", 0, nil},
		{"Gogglebot", -1, nil},
		{"", 3, nil},
		{"gpt", 3, nil}, // two edits from none, and GPTBot is three
		{"xy", 3, nil},  // at most len-1 edits: a name is never all replaced
		{"NoSuchCrawlerAtAll", 3, nil},
		{strings.Repeat("Googlebot", 1000), 3, nil},
	} {
		if got := Closest(tt.name, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("Closest(%q, %d) = %q, want %q", tt.name, tt.n, got, tt.want)
		}
	}
	// Ordering, n, ties and the one-edit margin, on a registry of our own.
	reg := newRegistry([]Robot{{Token: "abcdef"}, {Token: "abcdex"}, {Token: "abcdxx"}, {Token: "Abcxyz"}, {Token: "zbcdef"}})
	for _, tt := range []struct {
		name string
		n    int
		want []string
	}{
		{"abcdef", 5, []string{"abcdef", "abcdex", "zbcdef"}}, // 0, 1, 1; abcdxx is 2
		{"abcdef", 2, []string{"abcdef", "abcdex"}},
		{"ABCDEG", 5, []string{"abcdef", "abcdex", "abcdxx", "zbcdef"}}, // 1, 1, 2, 2: ties in token order
		{"abcxyy", 5, []string{"Abcxyz"}},
	} {
		if got := reg.closest(tt.name, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("closest(%q, %d) = %q, want %q", tt.name, tt.n, got, tt.want)
		}
	}
}

// TestSelect: the words of a selection, tokens, and the error for an
// unknown token with the closest names.
func TestSelect(t *testing.T) {
	ai, err := Select("ai")
	if err != nil || len(ai) != len(AIRobots()) || len(ai) == 0 {
		t.Fatalf("ai: %d robots, %v", len(ai), err)
	}
	for _, r := range ai {
		if !r.Purpose.AI() {
			t.Errorf("ai holds %s (%v)", r.Token, r.Purpose)
		}
	}
	def, _ := Select("")
	both, _ := Select("search,ai")
	if len(def) != len(both) || len(def) != len(ByPurpose(Search))+len(ai) {
		t.Errorf("default: %d robots, search,ai %d", len(def), len(both))
	}
	got, err := Select("GPTBot, gptbot ,seo")
	if err != nil || got[0].Token != "GPTBot" || len(got) != 1+len(ByPurpose(SEO)) {
		t.Errorf("GPTBot,gptbot,seo: %d robots, %v", len(got), err)
	}
	if _, err := Select("GPTbott"); err == nil || !strings.Contains(err.Error(), `unknown robot "GPTbott"; did you mean GPTBot`) {
		t.Errorf("a typo: %v", err)
	}
}
