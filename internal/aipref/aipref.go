// Package aipref reads usage preferences: for an asset, whether its
// publisher allows or disallows each purpose of use (search, AI input, AI
// training), as the IETF AIPREF vocabulary and Cloudflare's Content
// Signals state them.
//
// # Vocabulary
//
// The AIPREF vocabulary is draft-ietf-aipref-vocab-08 (September 2026,
// https://www.ietf.org/archive/id/draft-ietf-aipref-vocab-08.txt). Its
// §6 serialization is an RFC 9651 Dictionary whose keys are the labels
// train-ai, ai-use and search and whose values are the Tokens y and n:
//
//	train-ai=n, search=y
//
// ParseUsage reads such a value as §6.5 processes it, and reports what a
// publisher most likely meant when the value says less than intended
// (train-ai=no is not train-ai=n). Labels lists the labels of -08 and those
// of earlier revisions, which -08 ignores (§6.4).
//
// The draft draft-ietf-aipref-attach-05 carries the value in the
// Content-Usage response header (§2) and in Content-Usage rules of
// robots.txt (§3).
//
// # Content Signals
//
// Cloudflare's Content Signals Policy (https://contentsignals.org,
// https://blog.cloudflare.com/content-signals-policy/, September 2025)
// writes search, ai-input and ai-train with yes or no:
//
//	Content-Signal: search=yes, ai-train=no
//
// ParseSignal reads such a value. Its names are those of Purpose; the
// AIPREF labels map onto them (train-ai to AITrain, ai-use to AIInput,
// search to Search), with two differences: AIPREF's train-ai covers
// generative models only (vocab-08 §4.1), and AIPREF's search overrides the
// other categories (§4.3).
//
// # Combination
//
// Several statements about one asset (a header and robots.txt, or two
// declaring parties) combine as vocab-08 §5.1 says: any disallow wins, then
// any allow, else the preference stays unknown. Combine does that.
//
// The package only reads values: it never fails, panics or prints, and its
// work is linear in the length of its input. Its values are immutable once
// returned and safe for concurrent use.
package aipref

import "strconv"

// A Purpose is a use of an asset that a usage preference speaks of. The
// names are those of Cloudflare's Content Signals; the AIPREF labels map
// onto them (see LookupLabel).
type Purpose uint8

// Purposes.
const (
	// Search is building a search index and giving search results that
	// link to the asset (vocab-08 §4.3, label search; Content Signals
	// search).
	Search Purpose = iota
	// AIInput is using the asset as input to a generative AI model, as
	// retrieval-augmented generation and grounding do (vocab-08 §4.2,
	// label ai-use; Content Signals ai-input).
	AIInput
	// AITrain is training or fine-tuning AI models on the asset (vocab-08
	// §4.1, label train-ai, generative models only; Content Signals
	// ai-train).
	AITrain
	// NumPurposes is the number of purposes. A Label of an earlier draft
	// has it as its Purpose: no purpose of today.
	NumPurposes
)

var purposeNames = [NumPurposes]string{"search", "ai-input", "ai-train"}

// String returns "search", "ai-input" or "ai-train", and "" for
// NumPurposes.
func (p Purpose) String() string {
	switch {
	case p < NumPurposes:
		return purposeNames[p]
	case p == NumPurposes:
		return ""
	}
	return "purpose(" + strconv.Itoa(int(p)) + ")"
}

// ParsePurpose returns the purpose named s ("search", "ai-input" or
// "ai-train"), ignoring ASCII case.
func ParsePurpose(s string) (Purpose, bool) {
	for p, name := range purposeNames {
		if equalFold(s, name) {
			return Purpose(p), true
		}
	}
	return 0, false
}

// A Value is a preference for one purpose: allowed, disallowed, or
// unknown. The zero value is None, unknown (vocab-08 §3: with no statement
// every preference is unknown).
type Value uint8

// Values.
const (
	// None: no usable statement; vocab-08 takes no position on what a
	// default might be (§5).
	None Value = iota
	// Yes: the use is allowed (the Token y; Content Signals yes).
	Yes
	// No: the use is disallowed (the Token n; Content Signals no).
	No
)

var valueNames = [...]string{"none", "yes", "no"}

// String returns "none", "yes" or "no".
func (v Value) String() string {
	if int(v) < len(valueNames) {
		return valueNames[v]
	}
	return "value(" + strconv.Itoa(int(v)) + ")"
}

// Prefs are the preferences of one statement, or of several combined, by
// Purpose. The zero value has every preference None.
type Prefs [NumPurposes]Value

// Combine returns the preferences of two statements about the same asset,
// purpose by purpose: if either disallows, the use is disallowed; else if
// either allows, it is allowed; else it is unknown ("the most restrictive
// preference applies", draft-ietf-aipref-vocab-08 §5.1).
func Combine(a, b Prefs) Prefs {
	var c Prefs
	for p := range c {
		switch {
		case a[p] == No || b[p] == No:
			c[p] = No
		case a[p] == Yes || b[p] == Yes:
			c[p] = Yes
		}
	}
	return c
}

// The drafts this package implements.
const (
	// Vocabulary is the AIPREF vocabulary draft whose labels and
	// processing ParseUsage follows.
	Vocabulary = "draft-ietf-aipref-vocab-08"
	// Attachment is the AIPREF draft that carries the vocabulary in the
	// Content-Usage header and in robots.txt.
	Attachment = "draft-ietf-aipref-attach-05"
)

// A Problem is something a parser reports about a value: a statement that
// says less than its author probably meant, or one that says nothing.
type Problem struct {
	// Offset is the byte offset in the value given where the problem
	// starts.
	Offset int
	// Key is the label or key concerned, as written; "" when the problem
	// is not about one.
	Key string
	// Value is the value of Key as written, "" when there is none.
	Value string
	// Msg says what is wrong and what the value means as written.
	Msg string
	// Suggest is what the label, the member or, for a value that does
	// not parse, the value probably should read, such as "train-ai=n" for
	// "train-ai=no" or "train-ai" for "train-al"; "" when there is no
	// clear fix.
	Suggest string
}

// equalFold reports whether a and b are equal under ASCII case folding.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// toLower returns s with ASCII upper-case letters lowered.
func toLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lower(b[j])
			}
			return string(b)
		}
	}
	return s
}

// distance returns the optimal string alignment distance of a and b
// (insertions, deletions, substitutions and swaps of adjacent bytes), or
// limit when it is limit or more. Names longer than 64 bytes are not
// compared: the result is limit.
func distance(a, b string, limit int) int {
	if len(a) > 64 || len(b) > 64 || absDiff(len(a), len(b)) >= limit {
		return limit
	}
	var rows [3][65]int
	prev2, prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1], rows[2][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit)
}

func absDiff(a, b int) int {
	if a < b {
		return b - a
	}
	return a - b
}
