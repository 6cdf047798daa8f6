package agents

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/lines"
	"github.com/robotskit/robots/internal/spell"
)

// Purpose is what a robot fetches pages for. The zero value means unset.
type Purpose uint8

// The purposes.
const (
	Search     Purpose = iota + 1 // builds a search engine's index
	Ads                           // checks ad landing pages or picks ads
	AITraining                    // collects data that trains AI models
	AISearch                      // builds an index for AI answers
	AIUser                        // fetches at an assistant user's request
	SEO                           // builds SEO tools' link and audit data
	Archive                       // archives the web
	Social                        // renders link previews
	Other                         // anything else
)

var purposeNames = [...]string{
	Search:     "search",
	Ads:        "ads",
	AITraining: "ai-training",
	AISearch:   "ai-search",
	AIUser:     "ai-user",
	SEO:        "seo",
	Archive:    "archive",
	Social:     "social",
	Other:      "other",
}

// String returns the purpose's name: "search", "ads", "ai-training",
// "ai-search", "ai-user", "seo", "archive", "social" or "other".
func (p Purpose) String() string {
	if p >= Search && int(p) < len(purposeNames) {
		return purposeNames[p]
	}
	return fmt.Sprintf("Purpose(%d)", uint8(p))
}

// Usage returns the usage purposes that the fetches of a robot with
// purpose p serve, in the vocabulary of usage preferences: "search",
// "ai-input" and "ai-train", in that order. It returns nil for the
// purposes no usage preference speaks of (Ads, SEO, Archive, Social,
// Other) and for the zero value. The caller may modify the result.
//
// The mapping follows the definitions of Cloudflare's Content Signals
// (https://contentsignals.org, the policy comment of its managed
// robots.txt):
//
//   - Search → "search": "building a search index and providing search
//     results (e.g., returning hyperlinks and short excerpts …)", which
//     "does not include providing AI-generated search summaries".
//   - AITraining → "ai-train": "training or fine-tuning AI models".
//   - AISearch and AIUser → "ai-input": "inputting content into one or
//     more AI models (e.g., retrieval augmented generation, grounding, or
//     other real-time taking of content for generative AI search
//     answers)". An AI search index (OAI-SearchBot, PerplexityBot) feeds
//     generative answers, not a list of links, and an assistant's fetch
//     for a user (ChatGPT-User, Claude-User) is such real-time taking.
//
// AIPREF names the same three uses train-ai, ai-use and search
// (draft-ietf-aipref-vocab-08 §4): its AI Use is "use of an asset as input
// to a generative AI model, where the asset is not directly provided by
// the user", so a page whose URL the user gives may fall outside it (the
// working group's issue 249 is open on that); its AI Training covers
// generative models only; and its Search overrides the other two.
//
// Usage maps the single Purpose of the registry, not every use an
// operator makes of its fetches: Googlebot's crawl also trains Gemini
// models and feeds AI Overviews, and Applebot's may train Apple's models.
// A robots.txt withholds some of those uses in the group of a control
// token that governs the robot ([ControlsFor]): Google-Extended for
// Gemini's training and grounding, Applebot-Extended for Apple's training;
// none withholds AI Overviews.
func (p Purpose) Usage() []string {
	switch p {
	case Search:
		return []string{usageSearch}
	case AITraining:
		return []string{usageAITrain}
	case AISearch, AIUser:
		return []string{usageAIInput}
	}
	return nil
}

// The usage purposes of Usage and Control.Purposes, in their order: the
// names of Cloudflare's Content Signals.
const (
	usageSearch  = "search"
	usageAIInput = "ai-input"
	usageAITrain = "ai-train"
)

// AI reports whether p is one of the AI purposes: AITraining, AISearch or
// AIUser. It is the one definition of "the AI crawlers" of the commands,
// the summaries and the web page.
func (p Purpose) AI() bool { return p == AITraining || p == AISearch || p == AIUser }

// ParsePurpose returns the purpose whose String form is s, compared ASCII
// case-insensitively.
func ParsePurpose(s string) (Purpose, error) {
	for p := Search; int(p) < len(purposeNames); p++ {
		if equalFold(s, purposeNames[p]) {
			return p, nil
		}
	}
	return 0, fmt.Errorf("agents: unknown purpose %q", s)
}

// MarshalText implements [encoding.TextMarshaler]. The zero value encodes
// as the empty string.
func (p Purpose) MarshalText() ([]byte, error) {
	if p == 0 {
		return []byte{}, nil
	}
	if int(p) >= len(purposeNames) {
		return nil, fmt.Errorf("agents: invalid purpose %d", uint8(p))
	}
	return []byte(purposeNames[p]), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler], accepting what
// [ParsePurpose] accepts and the empty string (the zero value).
func (p *Purpose) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*p = 0
		return nil
	}
	v, err := ParsePurpose(string(text))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// Obeys is what a robot's operator says about it honouring robots.txt.
// The zero value is ObeysUnknown.
type Obeys uint8

// The operators' claims.
const (
	ObeysUnknown Obeys = iota // no claim, or none that applies
	ObeysYes                  // honours robots.txt
	ObeysNo                   // ignores robots.txt
	ObeysPartial              // honours it for some fetches, or may ignore it
)

var obeysNames = [...]string{
	ObeysUnknown: "unknown",
	ObeysYes:     "yes",
	ObeysNo:      "no",
	ObeysPartial: "partial",
}

// String returns "unknown", "yes", "no" or "partial".
func (o Obeys) String() string {
	if int(o) < len(obeysNames) {
		return obeysNames[o]
	}
	return fmt.Sprintf("Obeys(%d)", uint8(o))
}

// MarshalText implements [encoding.TextMarshaler].
func (o Obeys) MarshalText() ([]byte, error) {
	if int(o) >= len(obeysNames) {
		return nil, fmt.Errorf("agents: invalid obeys value %d", uint8(o))
	}
	return []byte(obeysNames[o]), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler]. It accepts the
// String forms, ASCII case-insensitively.
func (o *Obeys) UnmarshalText(text []byte) error {
	for v := range obeysNames {
		if equalFold(string(text), obeysNames[v]) {
			*o = Obeys(v)
			return nil
		}
	}
	return fmt.Errorf("agents: unknown obeys value %q", text)
}

// Robot is one known robot. The JSON form of a Robot, with the field names
// below in lower camel case, is the format of the embedded data.
type Robot struct {
	// Token is the product token as the operator documents it, for
	// example "Googlebot-Image".
	Token string `json:"token"`
	// Reads is how robots.txt names the robot, as WholeName says:
	// "product token", or "whole name" for a Token that is not an RFC 9309
	// product token. The registry computes it from Token (a value in the
	// data is replaced), for the JSON form; a Robot built by hand may leave
	// it empty.
	Reads string `json:"reads,omitempty"`
	// Name is the robot's human name, for example "Googlebot Images".
	Name string `json:"name,omitempty"`
	// Owner is the operator, for example "Google".
	Owner string `json:"owner"`
	// Purpose is what the robot fetches pages for.
	Purpose Purpose `json:"purpose"`
	// Obeys is the operator's claim about honouring robots.txt.
	Obeys Obeys `json:"obeys"`
	// ObeysNote qualifies Obeys, for example "user-triggered fetchers
	// generally ignore robots.txt".
	ObeysNote string `json:"obeysNote,omitempty"`
	// Profile is how the robot reads robots.txt: "google", "rfc9309",
	// "bing", "yandex", "draft1996" or "strict1994".
	Profile string `json:"profile"`
	// Fetch is how the robot treats the HTTP status of robots.txt:
	// "google", "rfc9309", "bing", "yandex", "mandelbot" or "draft1996".
	Fetch string `json:"fetch"`
	// Fallback lists the tokens the robot obeys, in order, when no group
	// names Token, before it falls back to "*".
	Fallback []string `json:"fallback,omitempty"`
	// IgnoresGlobal is set for robots that skip the "*" group: only groups
	// naming them apply.
	IgnoresGlobal bool `json:"ignoresGlobal,omitempty"`
	// UserAgents are the full User-Agent header strings the robot sends, as
	// documented; empty for control tokens. "W.X.Y.Z" stands for a Chrome
	// version that changes over time.
	UserAgents []string `json:"userAgents,omitempty"`
	// Doc is the operator's documentation URL, if known.
	Doc string `json:"doc,omitempty"`
	// Retired is set for tokens the operator no longer documents.
	Retired bool `json:"retired,omitempty"`
	// Successor is, for a retired token, the token that replaced it.
	Successor string `json:"successor,omitempty"`
	// TokenOnly is set for tokens with no crawler of their own: usage
	// control tokens such as Google-Extended, and the umbrella token
	// Yandex, which Yandex robots fall back to.
	TokenOnly bool `json:"tokenOnly,omitempty"`
	// Controls is set for usage control tokens: tokens whose group in
	// robots.txt says what the operator may do with what its other robots
	// fetched, not what a robot may fetch. Nil for every other robot.
	Controls *Control `json:"controls,omitempty"`
	// Notes holds anything else worth knowing about the robot.
	Notes string `json:"notes,omitempty"`
	// Source names the evidence for the entry.
	Source string `json:"source"`
}

// Control is what a usage control token governs. Google-Extended governs
// Google's use of what the Googlebot crawlers fetch, for training Gemini
// models and for grounding; Applebot-Extended governs Apple's use of what
// Applebot fetches, for training its foundation models. A Disallow in the
// token's group withholds the Purposes for the paths it matches; it never
// stops a fetch.
type Control struct {
	// Governs lists the tokens of the robots whose fetches the control
	// governs, all of the control's Owner: Googlebot, Googlebot-Image,
	// Googlebot-News and Googlebot-Video for Google-Extended, Applebot for
	// Applebot-Extended.
	Governs []string `json:"governs"`
	// Purposes lists the usage purposes a Disallow for the token
	// withholds, in the order and vocabulary of Purpose.Usage: "search",
	// "ai-input", "ai-train". They are the uses the operator names, and
	// only those: Google-Extended's "ai-input" is grounding in Gemini Apps
	// and Vertex AI, not the AI Overviews of Google Search.
	Purposes []string `json:"purposes"`
}

// The values of Robot.Reads.
const (
	ReadsProductToken = "product token"
	ReadsWholeName    = "whole name"
)

// WholeName reports whether robots.txt names the robot by its whole name:
// its Token is not a product token as RFC 9309 §2.2.1 defines one
// ([A-Za-z_-]+), so an RFC 9309 or Google parser compares only the
// token's leading run of those characters ("MJ" for MJ12bot, "archive"
// for archive.org_bot, nothing for 360Spider), while the operator
// documents User-agent lines with the whole name
// (https://mj12bot.com/, https://archive.org/details/archive.org_bot). The
// root package's Agent.WholeName reads such a robot by its whole name.
func (r Robot) WholeName() bool {
	return r.Token != "" && lines.ProductToken(r.Token) != r.Token
}

// reads returns what Reads holds for r.
func (r Robot) reads() string {
	if r.WholeName() {
		return ReadsWholeName
	}
	return ReadsProductToken
}

// Tokens returns Token followed by Fallback: the chain of product tokens
// the robot tries, most specific first.
func (r Robot) Tokens() []string {
	return append([]string{r.Token}, r.Fallback...)
}

// Reader returns how the robot reads a robots.txt file: the agent it
// finds its groups by (its token chain, whether it skips the "*" groups,
// whether it is named by its whole name) and the profile it reads the file
// with (Google when its Profile names none the root package knows). It is
// the one way from a registry robot to the root package's matcher.
func (r Robot) Reader() (robots.Agent, robots.Profile) {
	p, err := robots.ParseProfile(r.Profile)
	if err != nil {
		p = robots.Google
	}
	return robots.Agent{Tokens: r.Tokens(), IgnoreGlobal: r.IgnoresGlobal, WholeName: r.WholeName()}, p
}

// UserAgent returns the User-Agent header the robot sends: the first of
// UserAgents with no version placeholder, else the first with
// "W.X.Y.Z" replaced by a recent Chrome version; "" for a robot with
// none, such as a control token.
func (r Robot) UserAgent() string {
	for _, ua := range r.UserAgents {
		if !strings.Contains(ua, "W.X.Y.Z") {
			return ua
		}
	}
	if len(r.UserAgents) > 0 {
		return strings.ReplaceAll(r.UserAgents[0], "W.X.Y.Z", "130.0.0.0")
	}
	return ""
}

// All returns every known robot, sorted by token (ASCII case-insensitive).
// The caller may modify the result.
func All() []Robot {
	return current().all()
}

// Lookup finds a robot by product token, compared ASCII
// case-insensitively: "googlebot" finds Googlebot.
func Lookup(token string) (Robot, bool) {
	return current().lookup(token)
}

// Closest returns up to n tokens of the registry closest to name, a
// mistyped token, closest first, for messages such as `unknown robot
// "Gogglebot"; did you mean Googlebot?`. Closeness is the edit distance
// ignoring ASCII case (insertions, deletions, substitutions, and swaps of
// two adjacent bytes), and only plausible tokens are returned: those at a
// distance of at most max(2, len(name)/3) and less than len(name), and at
// most one edit further than the closest ("YandexBots" gives YandexBot,
// not Mandelbot). A token equal to name, ignoring case, is at distance 0.
// Ties keep the registry's order (by token). It returns nil for n <= 0 or
// when no token is close.
func Closest(name string, n int) []string {
	return current().closest(name, n)
}

// Unknown says that the registry does not know name, with the closest of
// its tokens when some come close: `unknown robot "Gogglebot"; did you
// mean Googlebot?`. The commands and the API all say it so.
func Unknown(name string) string {
	msg := "unknown robot " + strconv.Quote(name)
	if near := Closest(name, 3); len(near) > 0 {
		msg += "; did you mean " + orList(near) + "?"
	}
	return msg
}

// ControlsFor returns the usage control tokens that govern the robot
// named token, compared ASCII case-insensitively, sorted by token: those
// whose Controls.Governs names the robot's token or a token of its
// Fallback, among the robots of its Owner. ControlsFor("Googlebot-Image")
// gives Google-Extended. Applebot falls back to Googlebot's group but is
// governed by Applebot-Extended alone: a control speaks for its operator's
// use of its own robots' fetches. It returns nil for a token the registry
// does not know and for a robot no control governs, such as GPTBot.
func ControlsFor(token string) []Robot {
	return current().controlsFor(token)
}

// ByPurpose returns the robots with purpose p, sorted by token.
func ByPurpose(p Purpose) []Robot {
	return current().byPurpose(p)
}

// AIRobots returns the robots whose purpose is an AI one (Purpose.AI), in
// the order of All.
func AIRobots() []Robot {
	var out []Robot
	for _, r := range All() {
		if r.Purpose.AI() {
			out = append(out, r)
		}
	}
	return out
}

// Select returns the robots a selection names, in order, each once:
//
//   - "" (the default): the search robots, then the AI robots (as
//     "search,ai");
//   - "all": every robot (All);
//   - "ai": the robots of an AI purpose (AIRobots);
//   - a purpose's name ("search", "ai-training", "seo" …): its robots
//     (ByPurpose);
//   - a comma-separated list of product tokens of the registry, compared
//     ignoring case, in which the words above may stand too: "GPTBot,
//     ClaudeBot" or "search,CCBot".
//
// Each group is in the registry's order (by token); retired robots and
// control tokens such as Google-Extended are included, since files still
// name them. An unknown token is an error that names it and suggests the
// closest tokens of the registry.
func Select(spec string) ([]Robot, error) {
	var out []Robot
	seen := make(map[string]bool)
	add := func(rs []Robot) {
		for _, r := range rs {
			if k := strings.ToLower(r.Token); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	if strings.TrimSpace(spec) == "" {
		spec = "search,ai"
	}
	var bad []string
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		switch strings.ToLower(item) {
		case "all":
			add(All())
			continue
		case "ai":
			add(AIRobots())
			continue
		}
		if p, err := ParsePurpose(item); err == nil {
			add(ByPurpose(p))
			continue
		}
		r, ok := Lookup(item)
		if !ok {
			bad = append(bad, item)
			continue
		}
		add([]Robot{r})
	}
	if len(bad) > 0 {
		var b strings.Builder
		for i, name := range bad {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(Unknown(name))
		}
		b.WriteString(` (want "all", "search", "ai", a purpose or tokens of the registry, see "robots agents")`)
		return nil, errors.New(b.String())
	}
	return out, nil
}

// orList joins names as "a", "a or b", "a, b or c".
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Default returns the robots a side-by-side comparison shows when the user
// names none: the main search crawlers, the main AI crawlers and control
// tokens, Mandelbot, and then one robot for each remaining profile that has
// a real (not retired, not token-only) robot, in that order.
func Default() []Robot {
	return current().defaults()
}

// HeaderToken derives the robots.txt product token from a full User-Agent
// header:
//
//	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" → "Googlebot"
//	"Googlebot-Image/1.0" → "Googlebot-Image"
//	"FooCrawler/1.0 (+http://foo.example)" → "FooCrawler"
//
// The first rule that gives a token wins:
//
//  1. A known robot's token, as a product name in the header: preceded by
//     the start, a space, "(" or ";", and followed by "/", ";", ")", a
//     space or the end. The longest such token wins, so "Googlebot-Image"
//     beats "Googlebot". It is returned as spelled in the header.
//  2. The first product (RFC 9110 §10.1.5: token ["/" version]) outside
//     comments whose name is not a browser's (Mozilla, AppleWebKit,
//     Chrome, Safari, …), reduced to its leading run of [A-Za-z_-]
//     (RFC 9309 §2.2.1).
//  3. The name of a "name/version" (or bare "name") element right after
//     "compatible;", as in "Mozilla/5.0 (compatible; NewBot/1.0)",
//     reduced the same way.
//
// It returns "" when no rule applies, as for a plain browser's header.
// Only the first 4096 bytes of the header are read.
func HeaderToken(userAgent string) string {
	return current().productToken(userAgent)
}

// Find finds a robot by its product token, as Lookup does, or else by a
// full User-Agent header that names one, as FromUserAgent does.
func Find(name string) (Robot, bool) {
	if rb, ok := Lookup(name); ok {
		return rb, true
	}
	return FromUserAgent(name)
}

// FromUserAgent identifies a known robot from a full User-Agent header, by
// [HeaderToken] then [Lookup].
func FromUserAgent(userAgent string) (Robot, bool) {
	reg := current()
	t := reg.productToken(userAgent)
	if t == "" {
		return Robot{}, false
	}
	return reg.lookup(t)
}

// maxUserAgent caps the bytes of a User-Agent header HeaderToken reads.
const maxUserAgent = 4096

// Profiles and fetch behaviours the data may name.
var (
	profileNames = []string{"google", "rfc9309", "bing", "yandex", "draft1996", "strict1994"}
	fetchNames   = []string{"google", "rfc9309", "bing", "yandex", "mandelbot", "draft1996"}
)

// defaultTokens are the robots Default lists first, in order: search
// crawlers, then AI crawlers and control tokens, then others.
var defaultTokens = []string{
	"Googlebot", "bingbot", "YandexBot", "Baiduspider", "Applebot", "DuckDuckBot",
	"GPTBot", "OAI-SearchBot", "ChatGPT-User", "ClaudeBot", "Claude-User",
	"PerplexityBot", "CCBot", "Google-Extended", "Applebot-Extended",
	"Bytespider", "meta-externalagent", "Amazonbot",
	"Mandelbot",
}

//go:embed robots.json
var robotsJSON []byte

// current is the registry of the embedded data, decoded on first use.
var current = sync.OnceValue(func() *registry {
	return loadRegistry(robotsJSON)
})

// registry is an immutable set of robots.
type registry struct {
	robots  []Robot        // sorted by token, ASCII case-insensitive
	byToken map[string]int // lower-case token → index in robots
	maxLen  int            // longest token, in bytes
	// controls holds, for each robot, the indices of the usage control
	// tokens that govern it (controlsFor), worked out once.
	controls [][]int
}

// loadRegistry decodes data into a registry; bad data gives an empty one.
func loadRegistry(data []byte) *registry {
	robots, err := decode(data)
	if err != nil {
		return &registry{}
	}
	return newRegistry(robots)
}

// decode reads a JSON array of robots, rejecting unknown fields and
// trailing data.
func decode(data []byte) ([]Robot, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var robots []Robot
	if err := dec.Decode(&robots); err != nil {
		return nil, fmt.Errorf("agents: decoding robots: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("agents: decoding robots: data after the array")
	}
	return robots, nil
}

// newRegistry indexes robots. Of several entries with the same token
// (ASCII case-insensitive) the first in sort order is kept; entries with
// an empty token are dropped.
func newRegistry(robots []Robot) *registry {
	robots = slices.DeleteFunc(slices.Clone(robots), func(r Robot) bool { return r.Token == "" })
	slices.SortStableFunc(robots, func(a, b Robot) int {
		if c := strings.Compare(lower(a.Token), lower(b.Token)); c != 0 {
			return c
		}
		return strings.Compare(a.Token, b.Token)
	})
	robots = slices.CompactFunc(robots, func(a, b Robot) bool { return equalFold(a.Token, b.Token) })
	reg := &registry{robots: robots, byToken: make(map[string]int, len(robots))}
	for i, r := range robots {
		robots[i].Reads = r.reads()
		reg.byToken[lower(r.Token)] = i
		reg.maxLen = max(reg.maxLen, len(r.Token))
	}
	// The controls of each robot: those of its owner whose Governs names a
	// token of its chain.
	reg.controls = make([][]int, len(robots))
	for i := range robots {
		r := &robots[i]
		chain := r.Tokens()
		governs := func(g string) bool {
			return slices.ContainsFunc(chain, func(t string) bool { return equalFold(g, t) })
		}
		for k := range robots {
			c := &robots[k]
			if c.Controls != nil && c.Owner == r.Owner && slices.ContainsFunc(c.Controls.Governs, governs) {
				reg.controls[i] = append(reg.controls[i], k)
			}
		}
	}
	return reg
}

func (reg *registry) all() []Robot {
	out := make([]Robot, len(reg.robots))
	for i, r := range reg.robots {
		out[i] = clone(r)
	}
	return out
}

func (reg *registry) lookup(token string) (Robot, bool) {
	if len(token) == 0 || len(token) > reg.maxLen {
		return Robot{}, false
	}
	i, ok := reg.byToken[lower(token)]
	if !ok {
		return Robot{}, false
	}
	return clone(reg.robots[i]), true
}

func (reg *registry) closest(name string, n int) []string {
	if n <= 0 || name == "" {
		return nil
	}
	limit := min(max(2, len(name)/3), len(name)-1)
	folded := lower(name)
	type near struct{ d, i int }
	var found []near
	for i, r := range reg.robots {
		if abs(len(r.Token)-len(name)) > limit {
			continue // every edit changes the length by at most one
		}
		if d := spell.Distance(folded, lower(r.Token), limit+1); d <= limit {
			found = append(found, near{d, i})
		}
	}
	slices.SortStableFunc(found, func(a, b near) int { return a.d - b.d })
	var out []string
	for _, f := range found[:min(n, len(found))] {
		if f.d > found[0].d+1 {
			break
		}
		out = append(out, reg.robots[f.i].Token)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (reg *registry) byPurpose(p Purpose) []Robot {
	var out []Robot
	for _, r := range reg.robots {
		if r.Purpose == p {
			out = append(out, clone(r))
		}
	}
	return out
}

func (reg *registry) controlsFor(token string) []Robot {
	if len(token) == 0 || len(token) > reg.maxLen {
		return nil
	}
	i, ok := reg.byToken[lower(token)]
	if !ok || len(reg.controls[i]) == 0 {
		return nil
	}
	out := make([]Robot, len(reg.controls[i]))
	for n, k := range reg.controls[i] {
		out[n] = clone(reg.robots[k])
	}
	return out
}

func (reg *registry) defaults() []Robot {
	var out []Robot
	seen := make(map[string]bool)
	for _, t := range defaultTokens {
		if r, ok := reg.lookup(t); ok && !seen[lower(r.Token)] {
			seen[lower(r.Token)] = true
			out = append(out, r)
		}
	}
	for _, p := range profileNames {
		if slices.ContainsFunc(out, func(r Robot) bool { return r.Profile == p }) {
			continue
		}
		for _, r := range reg.robots {
			if r.Profile == p && !r.Retired && !r.TokenOnly {
				out = append(out, clone(r))
				break
			}
		}
	}
	return out
}

// clone returns r with its slices and Controls copied.
func clone(r Robot) Robot {
	r.Fallback = slices.Clone(r.Fallback)
	r.UserAgents = slices.Clone(r.UserAgents)
	if r.Controls != nil {
		r.Controls = &Control{
			Governs:  slices.Clone(r.Controls.Governs),
			Purposes: slices.Clone(r.Controls.Purposes),
		}
	}
	return r
}

func (reg *registry) productToken(ua string) string {
	if len(ua) > maxUserAgent {
		ua = ua[:maxUserAgent]
	}
	if t := reg.knownToken(ua); t != "" {
		return t
	}
	if t := firstProduct(ua); t != "" {
		return t
	}
	return afterCompatible(ua)
}

// knownToken returns the longest known token that appears in ua as a
// product name (rule 1 of HeaderToken). Each candidate starts after a
// delimiter and runs to the next terminator; runs longer than the longest
// token are skipped, so the work is O(len(ua) × longest token).
func (reg *registry) knownToken(ua string) string {
	best := ""
	var buf [64]byte
	for i := 0; i < len(ua); i++ {
		if i > 0 && !isStartDelim(ua[i-1]) {
			continue
		}
		j := i
		for j < len(ua) && j-i <= reg.maxLen && !isEndDelim(ua[j]) {
			j++
		}
		n := j - i
		if n == 0 || n > reg.maxLen || n > len(buf) || n <= len(best) {
			continue
		}
		for k := 0; k < n; k++ {
			buf[k] = lowerByte(ua[i+k])
		}
		if _, ok := reg.byToken[string(buf[:n])]; ok {
			best = ua[i:j]
		}
	}
	return best
}

func isStartDelim(c byte) bool { return c == ' ' || c == '\t' || c == '(' || c == ';' }

func isEndDelim(c byte) bool { return c == '/' || c == ';' || c == ')' || c == ' ' || c == '\t' }

// firstProduct implements rule 2 of HeaderToken. It reads the header as
// RFC 9110 products and comments separated by whitespace; a product must
// start a word, and a character that can be neither ends the word.
func firstProduct(ua string) string {
	i := 0
	for i < len(ua) {
		c := ua[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(':
			i = skipComment(ua, i)
		case isTchar(c):
			j := i
			for j < len(ua) && isTchar(ua[j]) {
				j++
			}
			name := ua[i:j]
			if j < len(ua) && ua[j] == '/' {
				j++
				for j < len(ua) && isTchar(ua[j]) {
					j++
				}
			}
			i = j
			if !isBrowserName(name) {
				if t := lines.ProductToken(name); t != "" {
					return t
				}
			}
		default:
			i = skipWord(ua, i)
		}
	}
	return ""
}

// afterCompatible implements rule 3 of HeaderToken.
func afterCompatible(ua string) string {
	const word = "compatible"
	for i := 0; i+len(word) <= len(ua); i++ {
		if (i > 0 && !isStartDelim(ua[i-1])) || !equalFold(ua[i:i+len(word)], word) {
			continue
		}
		j := skipSpace(ua, i+len(word))
		if j >= len(ua) || ua[j] != ';' {
			continue
		}
		j = skipSpace(ua, j+1)
		k := j
		for k < len(ua) && isTchar(ua[k]) {
			k++
		}
		if k < len(ua) && ua[k] != '/' && ua[k] != ';' && ua[k] != ')' {
			continue
		}
		if name := ua[j:k]; !isBrowserName(name) {
			if t := lines.ProductToken(name); t != "" {
				return t
			}
		}
	}
	return ""
}

// skipComment returns the index after the comment that starts at ua[i],
// which is "("; comments nest and "\" quotes the next byte (RFC 9110
// §5.6.5). An unclosed comment runs to the end.
func skipComment(ua string, i int) int {
	depth := 0
	for ; i < len(ua); i++ {
		switch ua[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(ua)
}

// skipWord returns the index of the next space or tab at or after i.
func skipWord(ua string, i int) int {
	for i < len(ua) && ua[i] != ' ' && ua[i] != '\t' {
		i++
	}
	return i
}

func skipSpace(ua string, i int) int {
	for i < len(ua) && (ua[i] == ' ' || ua[i] == '\t') {
		i++
	}
	return i
}

// isTchar reports whether c is an RFC 9110 §5.6.2 token character.
func isTchar(c byte) bool {
	if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// browserNames are product names of web browsers and their engines, which
// never name a robot. Lower case.
var browserNames = map[string]bool{
	"mozilla": true, "applewebkit": true, "webkit": true, "khtml": true,
	"like": true, "gecko": true, "compatible": true, "version": true,
	"mobile": true, "safari": true, "chrome": true, "chromium": true,
	"headlesschrome": true, "crios": true, "firefox": true, "fxios": true,
	"edg": true, "edge": true, "edga": true, "edgios": true, "opr": true,
	"opera": true, "presto": true, "trident": true, "msie": true,
	"samsungbrowser": true, "yabrowser": true, "ucbrowser": true,
	"vivaldi": true, "brave": true, "konqueror": true, "silk": true,
}

func isBrowserName(name string) bool {
	if len(name) > len("samsungbrowser") {
		return false
	}
	var buf [len("samsungbrowser")]byte
	for i := 0; i < len(name); i++ {
		buf[i] = lowerByte(name[i])
	}
	return browserNames[string(buf[:len(name)])]
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// lower returns s with ASCII letters lower-cased.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerByte(b[j])
			}
			return string(b)
		}
	}
	return s
}

// equalFold reports whether a and b are equal under ASCII case folding.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerByte(a[i]) != lowerByte(b[i]) {
			return false
		}
	}
	return true
}
