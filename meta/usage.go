package meta

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/robotskit/robots/internal/aipref"
)

// A UsageStatement is one statement of usage preferences found in a
// response, with its source: whether the publisher allows search, AI input
// and AI training with the content. Several statements about one response
// combine as draft-ietf-aipref-vocab-08 §5.1 says, any disallow first (the
// Prefs of each combine purpose by purpose, no over yes over none).
//
// A UsageStatement is a value; the zero value states nothing.
type UsageStatement struct {
	// Source is where the statement was written: "Content-Usage header",
	// "Content-Signal header", "tdm-reservation header", "X-Robots-Tag",
	// "Robots-Tag header" or "robots meta tag".
	Source string
	// Prefs are the preferences stated, by purpose (aipref.Search,
	// aipref.AIInput, aipref.AITrain): aipref.Yes, aipref.No, or
	// aipref.None when the statement says nothing usable about it.
	Prefs aipref.Prefs
	// Value is the statement as written: the field value (several fields
	// of one name combined), or the directive.
	Value string
	// Policy is the tdm-policy URL that goes with a tdm-reservation
	// statement, as written; "" otherwise.
	Policy string
	// Images reports a statement about the images of the page only
	// (noimageai), not its text.
	Images bool
	// Problems are what the publisher probably did not mean, and the
	// limits of the reading; offsets are in Value.
	Problems []aipref.Problem
}

// Sources of usage statements.
const (
	srcContentUsage  = "Content-Usage header"
	srcContentSignal = "Content-Signal header"
	srcTDM           = "tdm-reservation header"
	srcRobotsMeta    = "robots meta tag"
	srcXRobotsTag    = "X-Robots-Tag"
	srcRobotsTag     = "Robots-Tag header"
)

// UsageFromHeader reads the usage preferences of a response header, a
// statement per source, in this order:
//
//   - Content-Usage (draft-ietf-aipref-attach-05 §2), read as
//     draft-ietf-aipref-vocab-08 §6.5 says (aipref.ParseUsage). It is a
//     Structured Field Dictionary: several Content-Usage fields are one
//     value, their field lines joined with commas (RFC 9651 §4.2, RFC 9110
//     §5.3); empty field lines add nothing.
//   - Content-Signal, Cloudflare's Content Signals (search, ai-input,
//     ai-train; aipref.ParseSignal). Cloudflare documents it for robots.txt;
//     as a response header it is seen in the wild (Cloudflare's Markdown
//     for Agents sends "Content-Signal: ai-train=yes, search=yes,
//     ai-input=yes"), and is read the same way.
//   - tdm-reservation and tdm-policy, the header of the W3C TDM Reservation
//     Protocol (TDMRep, Final Community Group Report, 10 May 2024,
//     https://www.w3.org/community/reports/tdmrep/CG-FINAL-tdmrep-20240510/,
//     #sec-tdm-header). See below.
//
// tdm-reservation 1 says "TDM rights are reserved" (#sec-tdm-reservation),
// the text-and-data-mining opt-out of Article 4 of the EU Directive
// 2019/790: it is read as aipref.AITrain No, since training an AI model on
// content is text and data mining. 0 says "TDM agents can mine the content
// for TDM purposes without having to contact the rightsholder": AITrain Yes.
// Neither says anything of search or AI input: the protocol's own notes on
// what TDM means (https://github.com/w3c/tdm-reservation-protocol,
// docs/tdm-meaning.md) put "copying content for information retrieval
// purposes" and "crawling and indexing of content for search & discovery"
// outside TDM. Any other value is a protocol error, and agents "MUST
// consider that tdm-reservation is unset": no preference, with a Problem.
// Several tdm-reservation fields that agree count as one; fields that
// differ are a protocol error. TDMRep's own precedence (the header
// overrides /.well-known/tdmrep.json, an HTML <meta> overrides the header,
// #sec-processing-priority) is the caller's to apply.
//
// X-Robots-Tag values that speak of AI use (noai, noimageai, and Bing's
// nocache and noarchive) are read by UsageFromDirectives from what
// FromHeader returns.
//
// Fields are read up to MaxHeaderFields of each name and MaxHeaderValue
// bytes each; a longer Content-Usage or Content-Signal field is not read
// at all, since a cut value would state something else.
func UsageFromHeader(h http.Header) []UsageStatement {
	var out []UsageStatement
	if v, probs, ok := combined(h.Values("Content-Usage"), "Content-Usage"); ok {
		s := UsageStatement{Source: srcContentUsage, Value: v}
		if probs == nil {
			u := aipref.ParseUsage(v)
			s.Prefs, s.Problems = u.Prefs, u.Problems
		}
		s.Problems = append(probs, s.Problems...)
		out = append(out, s)
	}
	if v, probs, ok := combined(h.Values("Content-Signal"), "Content-Signal"); ok {
		s := UsageStatement{Source: srcContentSignal, Value: v}
		if probs == nil {
			sig := aipref.ParseSignal(v)
			s.Prefs, s.Problems = sig.Prefs, sig.Problems
		}
		s.Problems = append(probs, s.Problems...)
		out = append(out, s)
	}
	if s, ok := tdmHeader(h); ok {
		out = append(out, s)
	}
	return out
}

// combined joins the field lines of one name into one value (RFC 9110
// §5.3), skipping empty ones. A field over MaxHeaderValue bytes is not
// read: probs then says so and v is empty.
func combined(values []string, name string) (v string, probs []aipref.Problem, ok bool) {
	var parts []string
	for i, f := range values {
		if i == MaxHeaderFields {
			probs = append(probs, aipref.Problem{Key: name,
				Msg: "more than " + strconv.Itoa(MaxHeaderFields) + " " + name + " fields; the statement is not read"})
			return "", probs, true
		}
		if len(f) > MaxHeaderValue {
			probs = append(probs, aipref.Problem{Key: name,
				Msg: "a " + name + " field longer than 16 KiB; the statement is not read"})
			return "", probs, true
		}
		if f = strings.Trim(f, " \t"); f != "" {
			parts = append(parts, f)
		}
	}
	if len(parts) == 0 {
		return "", nil, false
	}
	return strings.Join(parts, ", "), nil, true
}

// tdmHeader reads the tdm-reservation and tdm-policy fields (TDMRep
// #sec-tdm-header); see UsageFromHeader.
func tdmHeader(h http.Header) (UsageStatement, bool) {
	res, pol := h.Values("Tdm-Reservation"), h.Values("Tdm-Policy")
	if len(res) == 0 && len(pol) == 0 {
		return UsageStatement{}, false
	}
	s := UsageStatement{Source: srcTDM}
	if len(pol) > 0 {
		s.Policy = strings.Trim(pol[0], " \t")
		if len(s.Policy) > MaxHeaderValue {
			s.Policy = ""
		}
	}
	problem := func(msg string) {
		s.Problems = append(s.Problems, aipref.Problem{Key: "tdm-reservation", Value: s.Value, Msg: msg})
	}
	if len(res) == 0 {
		problem("tdm-policy without tdm-reservation, which a TDMRep header requires: the reservation is unset (TDMRep #sec-tdm-header)")
		return s, true
	}
	v := strings.Trim(res[0], " \t")
	agree := true
	for _, r := range res[1:min(len(res), MaxHeaderFields)] {
		agree = agree && strings.Trim(r, " \t") == v
	}
	s.Value = clipValue(v)
	switch {
	case !agree:
		s.Value = clipValue(strings.Join(res[:min(len(res), MaxHeaderFields)], ", "))
		problem("tdm-reservation fields that differ: a protocol error, so the reservation is unset (TDMRep #sec-tdm-reservation)")
		return s, true
	case len(res) > 1:
		problem("tdm-reservation is sent " + strconv.Itoa(len(res)) + " times; they agree, and count as one")
	}
	s.Prefs, _ = tdmPrefs(v)
	switch v {
	case "1":
		if s.Policy != "" && !absoluteURL(s.Policy) {
			problem("tdm-policy is not an absolute http or https URL: " + strconv.Quote(clipValue(s.Policy)))
		}
	case "0":
		if s.Policy != "" {
			problem("tdm-policy with tdm-reservation 0: agents SHOULD NOT process it (TDMRep #sec-tdm-policy)")
		}
	default:
		problem("tdm-reservation is 1 or 0; other values are a protocol error, and agents MUST consider the reservation unset (TDMRep #sec-tdm-reservation)")
	}
	return s, true
}

func clipValue(v string) string {
	if len(v) > MaxHeaderValue {
		return v[:MaxHeaderValue]
	}
	return v
}

func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// bingRobots are the robots Bing's nocache and noarchive speak to: bingbot,
// the crawler of Bing's index, on which the answers of Bing Chat draw
// (Bing's crawler list,
// https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0),
// and msnbot, the token of its retired predecessor.
var bingRobots = []string{"bingbot", "msnbot"}

// UsageFromDirectives reads the robots meta tag and X-Robots-Tag
// directives of ds that speak of AI use and apply to robot, a product
// token ("" for the directives addressed to every robot only), a
// statement per directive:
//
//   - noai and noimageai, from DeviantArt ("UPDATE: All Deviations Are
//     Opted Out of AI Datasets", November 2022,
//     https://www.deviantart.com/team/journal/UPDATE-All-Deviations-Are-Opted-Out-of-AI-Datasets-934500371):
//     content "not authorized for inclusion in third-party datasets used to
//     train artificial-intelligence models", which third parties that
//     "train machine-learning models of any kind must ensure their training
//     data set excludes". Both read as aipref.AITrain No, for every
//     robot. noimageai is placed on a page for its images (Images is set);
//     noai is sent with the image file itself. They are unofficial: no
//     search or AI vendor documents honouring them, while LAION's
//     downloader img2dataset does by default; a Problem says so.
//   - Bing's nocache and noarchive, for Bing's robots (bingbot, msnbot)
//     only ("Announcing new options for webmasters to control usage of
//     their content in Bing Chat", Bing Webmaster Blog, September 2023,
//     https://blogs.bing.com/webmaster/september-2023/Announcing-new-options-for-webmasters-to-control-usage-of-their-content-in-Bing-Chat).
//     noarchive: the content "will not be included in Bing Chat answers",
//     and Bing "will not use the content for training Microsoft's
//     generative AI foundation models": aipref.AIInput and AITrain No.
//     nocache: answers "only display URL/Snippet/Title", and "only URLs,
//     Titles and Snippets may be used" in training: AIInput and AITrain
//     No, with a Problem saying that the URL, title and snippet may still
//     be used. Of both, Bing treats the page as nocache. Neither changes
//     search: such pages still "appear in our search results". For other
//     robots they are what they have always been, a request not to show a
//     cached copy, and state no usage preference.
func UsageFromDirectives(ds []Directive, robot string) []UsageStatement {
	bing := false
	if tok, _, _ := strings.Cut(robot, "/"); tok != "" {
		for _, b := range bingRobots {
			bing = bing || strings.EqualFold(tok, b)
		}
	}
	applies := func(d Directive) bool {
		if robot == "" {
			return Applies(ds, d)
		}
		return Applies(ds, d, robot)
	}
	nocache := false
	if bing {
		for _, d := range ds {
			nocache = nocache || d.Name == "nocache" && d.Value == "" && applies(d)
		}
	}
	var out []UsageStatement
	for _, d := range ds {
		if d.Value != "" || !applies(d) {
			continue
		}
		s := UsageStatement{Source: usageSource(d.Source), Value: d.Text}
		problem := func(msg string) {
			s.Problems = append(s.Problems, aipref.Problem{Key: d.Name, Value: d.Text, Msg: msg})
		}
		switch d.Name {
		case "noai", "noimageai":
			s.Prefs[aipref.AITrain] = aipref.No
			s.Images = d.Name == "noimageai"
			what := "noai is DeviantArt's"
			if s.Images {
				what = "noimageai is DeviantArt's, about the images of the page,"
			}
			problem(what + " opt-out of AI training datasets (2022): unofficial, honoured by LAION's img2dataset but documented by no search or AI vendor")
		case "nocache", "noarchive":
			if !bing {
				continue
			}
			s.Prefs[aipref.AIInput] = aipref.No
			s.Prefs[aipref.AITrain] = aipref.No
			if d.Name == "nocache" || nocache {
				msg := "Bing may still use the URL, title and snippet in Bing Chat answers and in training (Bing Webmaster Blog, September 2023)"
				if d.Name == "noarchive" {
					msg = "with nocache also given, Bing treats the page as nocache: " + msg
				}
				problem(msg)
			}
		default:
			continue
		}
		out = append(out, s)
	}
	return out
}

// usageSource names the source of a directive as UsageStatement does.
func usageSource(s Source) string {
	switch s {
	case XRobotsTag:
		return srcXRobotsTag
	case RobotsTag:
		return srcRobotsTag
	}
	return srcRobotsMeta
}

// tdmPrefs is what a tdm-reservation value says, wherever it is written
// (the header, a meta tag, tdmrep.json): ok is false for a value other
// than 1 or 0, which leaves the reservation unset (TDMRep
// #sec-tdm-reservation).
func tdmPrefs(v string) (p aipref.Prefs, ok bool) {
	switch v {
	case "1":
		// "TDM rights are reserved": the Article 4 opt-out of Directive
		// (EU) 2019/790, which covers training AI models on the content.
		p[aipref.AITrain] = aipref.No
		return p, true
	case "0":
		// "TDM agents can mine the content for TDM purposes without
		// having to contact the rightsholder".
		p[aipref.AITrain] = aipref.Yes
		return p, true
	}
	return p, false
}

// TDMReservation is the statement of a TDMRep reservation read elsewhere
// than in a header, such as a rule of the site's tdmrep.json (TDMRep
// #sec-tdm-file): reservation 1 or 0 (anything else states nothing, and
// ok is false), the tdm-policy URL if any, and source, where it was
// written. A reservation of 1 is ai-train no, 0 ai-train yes, as in the
// header.
func TDMReservation(reservation int, policy, source string) (s UsageStatement, ok bool) {
	s = UsageStatement{Source: source, Value: strconv.Itoa(reservation), Policy: policy}
	s.Prefs, ok = tdmPrefs(s.Value)
	return s, ok
}

// TDM is the statement of the page's TDMRep meta tags (TDMRep
// #sec-tdm-html), ok false when it has none or its tdm-reservation is
// not 1 or 0. TDMRep ranks its sources: the meta tags over the header
// fields, the header fields over the site's tdmrep.json.
func (d *Document) TDM() (s UsageStatement, ok bool) {
	if d == nil || d.TDMReservation == "" {
		return UsageStatement{}, false
	}
	s = UsageStatement{Source: "tdm-reservation meta tag", Value: clipValue(d.TDMReservation), Policy: d.TDMPolicy}
	s.Prefs, ok = tdmPrefs(d.TDMReservation)
	return s, ok
}
