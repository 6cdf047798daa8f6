package syntax

import "github.com/robotskit/robots/internal/lines"

// File is a parsed robots.txt file. It keeps every byte of its input:
// [File.Bytes] returns the input unchanged.
type File struct {
	// Name is the file name used in positions of diagnostics; it may be "".
	Name string
	// BOM holds the leading bytes that were skipped as a UTF-8 byte order mark
	// (EF BB BF) or a prefix of one, as Google's parser skips them; "" when the
	// input does not start with one.
	BOM string
	// Lines holds one node per line, in order. The empty text after a final
	// line terminator is not a line.
	Lines []Line

	src string
}

// Text returns the input text covered by s.
func (f *File) Text(s Span) string {
	if !s.IsValid() {
		return ""
	}
	return f.src[s.Start.Offset:s.End.Offset]
}

// LineKind classifies a line. It is the one enumeration of line kinds of
// the module, shared with the root package's own line reader.
type LineKind = lines.Kind

// The kinds of line.
const (
	// BlankLine holds nothing but white space.
	BlankLine = lines.BlankLine
	// CommentLine holds only a comment (and white space).
	CommentLine = lines.CommentLine
	// DirectiveLine holds a key and a value, and maybe a comment.
	DirectiveLine = lines.DirectiveLine
	// InvalidLine holds text that is neither a directive nor a comment:
	// no separator between key and value, or an empty key.
	InvalidLine = lines.InvalidLine
)

// Field is the directive a key names. The zero value, [Unknown], is a key
// the parser does not recognise; its text is still in the tree. Its
// String method returns the canonical spelling ("User-agent",
// "Disallow", …), or "" for Unknown. It is the one enumeration of
// directives of the module, shared with the root package's own line
// reader and the checker.
type Field = lines.Field

// The directives.
const (
	// Unknown is a key that names no directive this package knows.
	Unknown = lines.Unknown
	// UserAgent starts or extends a group (RFC 9309 §2.2.1).
	UserAgent = lines.UserAgent
	// Allow is a rule (RFC 9309 §2.2.2).
	Allow = lines.Allow
	// Disallow is a rule (RFC 9309 §2.2.2).
	Disallow = lines.Disallow
	// Sitemap names a sitemap URL; it belongs to no group (RFC 9309 §2.2.4).
	Sitemap = lines.Sitemap
	// CrawlDelay asks for a pause between requests, in seconds (Bing's and
	// Yandex's documentation).
	CrawlDelay = lines.CrawlDelay
	// RequestRate limits requests per time span, e.g. 1/30 (Sean Conner's
	// "An Extended Standard for Robot Exclusion").
	RequestRate = lines.RequestRate
	// VisitTime limits crawling to a daily UTC window, e.g. 2300-0430
	// (the extended standard).
	VisitTime = lines.VisitTime
	// Host names the preferred mirror; Yandex only (Yandex's robots.txt
	// help).
	Host = lines.Host
	// CleanParam names URL parameters that do not change content; Yandex
	// only (Yandex's robots.txt help).
	CleanParam = lines.CleanParam
	// RobotVersion says which version of the exclusion standard a group
	// follows, 1.0 or 2.0 (the extended standard).
	RobotVersion = lines.RobotVersion
	// Comment is the extended standard's Comment directive, not a
	// '#' comment.
	Comment = lines.Comment
	// ContentUsage states usage preferences for the paths it names, as
	// an optional path and an AIPREF dictionary such as "train-ai=n"; a
	// group rule matched like Allow and Disallow
	// (draft-ietf-aipref-attach-05 §3).
	ContentUsage = lines.ContentUsage
	// ContentSignal states Cloudflare's content signals, such as
	// "search=yes, ai-train=no", for the robots of its group
	// (contentsignals.org).
	ContentSignal = lines.ContentSignal
	// License points to the licence of the site's content, an absolute
	// URL; it belongs to no group (RSL 1.0, rslstandard.org).
	License = lines.License
)

// Flags records irregularities of a line that some robots forgive and
// others do not. Profiles decide; the tree only records.
type Flags = lines.Flags

// The irregularities of a line.
const (
	// Lenient marks a key that names its field only under Google's lenient
	// reading: a misspelling Google accepts ("disalow", "useragent",
	// "user agent", "site-map") or a known key with extra trailing text
	// ("user-agents", "disallowed"), which Google reads by prefix.
	Lenient = lines.Lenient
	// MissingColon marks a directive whose key and value are separated by
	// white space instead of ':' ("Disallow /x"), which Google accepts when
	// the line holds exactly two words.
	MissingColon = lines.MissingColon
	// TooLong marks a line longer than [MaxLineLen]; the bytes past the limit
	// were not read for the key, value or comment.
	TooLong = lines.TooLong
	// NUL marks a line with a NUL byte; the line is read only up to it.
	NUL = lines.NUL
	// InvalidUTF8 marks a line that is not valid UTF-8.
	InvalidUTF8 = lines.InvalidUTF8
	// NoSeparator marks an invalid line with no ':' and not exactly two
	// white-space separated words.
	NoSeparator = lines.NoSeparator
	// EmptyKey marks an invalid line whose ':' has nothing before it.
	EmptyKey = lines.EmptyKey
)

// MaxLineLen is the number of bytes of a line that is read; the rest of a
// longer line is kept in the tree but ignored, as Google's parser ignores it
// (its line buffer holds 2083·8 bytes including the terminating NUL).
const MaxLineLen = lines.MaxLen

// Line is one line of a robots.txt file.
type Line struct {
	Kind  LineKind
	Field Field // for a DirectiveLine; Unknown otherwise
	Flags Flags
	// EOL is the length of the line terminator: 0 (end of input), 1 (LF or
	// CR) or 2 (CRLF).
	EOL int
	// Span covers the line's text, without its terminator.
	Span Span
	// Key and Value are the directive's key and value, white space trimmed;
	// Value may be empty. Both are absent unless Kind is DirectiveLine.
	Key, Value Span
	// Comment covers the comment from '#' to the end of the line's read
	// part; it is absent when the line has none.
	Comment Span
}

// String returns the file's text as it was parsed.
func (f *File) String() string { return f.src }
